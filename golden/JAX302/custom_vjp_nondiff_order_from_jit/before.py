from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def series_exp(order, x):
    return sum(x ** k / jnp.exp(jax.scipy.special.gammaln(k + 1.0)) for k in range(order))


def series_exp_fwd(order, x):
    y = series_exp(order, x)
    return y, y


def series_exp_bwd(order, y, g):
    return (g * y,)


series_exp.defvjp(series_exp_fwd, series_exp_bwd)


@jax.jit
def accuracy(order, x):
    return jnp.abs(series_exp(order, x) - jnp.exp(x))


print(accuracy(8, 1.0))
