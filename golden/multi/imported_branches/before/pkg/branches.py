from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["N"])
def run_true(N, x):
    return x.reshape((1, 4, 5)) * jnp.ones((N, 4, 5))


@partial(jax.jit, static_argnames=["N"])
def run_false(N, x):
    return jnp.zeros((N, 4, 5))
