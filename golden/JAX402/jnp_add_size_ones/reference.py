# Hand fix for jax-ml/jax#4449: do the shape arithmetic on Python ints
# (arr.size and a static n are ints at trace time), as mattjj's omnistaging note says.
from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def custom_ones(arr):
  return jnp.ones((arr.size + 1,))


@partial(jax.jit, static_argnums=(1,))
def custom_ones_static(arr, n):
  return jnp.ones((n + 1,)) * arr.sum()


a = jnp.ones((3,))
print(custom_ones(a))
print(custom_ones_static(a, 4))
