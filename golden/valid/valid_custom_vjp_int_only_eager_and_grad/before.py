# Looks like jax#11646 (`int(k)` on an ordinary argument of a custom_vjp), but the function is
# only called eagerly and under grad alone: custom_vjp hands it the Python number as it is.
import jax


@jax.custom_vjp
def power(z, k):
    return z ** int(k)


def power_fwd(z, k):
    return power(z, k), (z, int(k))


def power_bwd(res, g):
    z, k = res
    return g * k * z ** (k - 1), None


power.defvjp(power_fwd, power_bwd)

print(power(3.0, 2), jax.grad(power)(3.0, 2))
