# The working form from jax-ml/jax#4449: "it works if instead of `jnp.add` one
# uses `arr.size + 1`". Shape arithmetic on Python ints (array metadata, a static
# argument, builtin max) under jit; jnp is only used on the traced data.
from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def custom_ones(arr):
  count = arr.size + 1
  return jnp.ones((count,))


@partial(jax.jit, static_argnums=(1,))
def custom_ones_static(arr, n):
  count = max(n, arr.shape[0]) + 1
  scale = jnp.add(arr.sum(), 1)
  return jnp.ones((count,)) * scale


a = jnp.ones((3,))
print(custom_ones(a))
print(custom_ones_static(a, 4))
