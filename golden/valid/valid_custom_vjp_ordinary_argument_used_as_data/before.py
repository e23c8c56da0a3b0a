# Looks like jax#11646 (a custom_vjp taking a Python number as an ordinary argument, called
# inside jit), but the power is only used as data: a tracer serves, and the program runs.
from functools import partial

import jax


@jax.custom_vjp
def power(z, k):
    return z ** k


def power_fwd(z, k):
    return power(z, k), (z, k)


def power_bwd(res, g):
    z, k = res
    return g * k * z ** (k - 1), None


power.defvjp(power_fwd, power_bwd)


@partial(jax.jit, static_argnums=1)
def f(z, k):
    return power(z, k)


print(jax.grad(f)(3.0, 2.0))
