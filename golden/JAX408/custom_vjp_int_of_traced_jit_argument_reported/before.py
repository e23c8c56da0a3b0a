# After jax#11646: the power reaches the custom_vjp as a traced argument of the jit around it,
# so listing it in nondiff_argnums alone would not do (custom_vjp refuses a tracer there).
from functools import partial

import jax


@partial(jax.custom_vjp, nondiff_argnums=())
def power(z, k):
    return z ** int(k)


def power_fwd(z, k):
    return power(z, k), (z, int(k))


def power_bwd(res, g):
    z, k = res
    return g * k * z ** (k - 1), None


power.defvjp(power_fwd, power_bwd)


@jax.jit
def f(z, k):
    return power(z, k)


print(jax.grad(f)(3.0, 2))
