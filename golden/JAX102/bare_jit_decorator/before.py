# jax-behaviour 1i: N is a traced parameter of the enclosing @jit, so binding alone cannot help.
from functools import partial

import jax
import jax.numpy as jnp
from jax import jit


@partial(jit, static_argnames=["N"])
def run_true(N, x):
    return x.reshape((1, 4, 5)) * jnp.ones((N, 4, 5))


@partial(jit, static_argnames=["N"])
def run_false(N, x):
    return jnp.zeros((N, 4, 5))


@jit
def outer(N, x, a):
    return jax.lax.cond(a, run_true, run_false, N, x)


x = jnp.arange(20.0).reshape(4, 5)
print(outer(3, x, True).sum(axis=(1, 2)))
print(outer(2, x, False).shape)
