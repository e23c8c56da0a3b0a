# The helper is called by keyword from a jitted lambda, whose parameter is traced.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("axis",))
def normalise(x, axis):
    return x / x.sum(axis=axis, keepdims=True)


run = jax.jit(lambda x, axis: normalise(x, axis=axis), static_argnames=("axis",))
print(run(jnp.ones((2, 2)), 0))
