# lax.cond inside a jitted function where N is static: cond still traces N (1b).
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["N"])
def run_true(N, x):
    return x.reshape((1, 4, 5)) * jnp.ones((N, 4, 5))


@partial(jax.jit, static_argnames=["N"])
def run_false(N, x):
    return jnp.zeros((N, 4, 5))


@partial(jax.jit, static_argnames=["N"])
def cond_logic(N, x, a):
    return jax.lax.cond(a, run_true, run_false, N, x)


x = jnp.arange(20.0).reshape(4, 5)
print(cond_logic(3, x, True).sum(axis=0))
print(cond_logic(2, x, False).shape)
