# After jax#11646: the power reaches the custom_vjp as a traced argument of the jit around it,
# so listing it in nondiff_argnums alone would not do (custom_vjp refuses a tracer there).
from functools import partial

import jax


@partial(jax.custom_vjp, nondiff_argnums=(1,))
def power(z, k):
    return z ** int(k)


def power_fwd(z, k):
    return power(z, k), z


def power_bwd(k, z, g):
    return (g * k * z ** (k - 1),)


power.defvjp(power_fwd, power_bwd)


@partial(jax.jit, static_argnums=1)
def f(z, k):
    return power(z, k)


print(jax.grad(f)(3.0, 2))
