# Cut down from jax-ml/jax#4449 ("Operations on static inputs/shapes yield
# concretization errors"): a count computed with jnp.add from the array's size,
# and the same from a static argument, used as a shape under jit.
from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def custom_ones(arr):
  count = arr.size + 1
  return jnp.ones((count,))


@partial(jax.jit, static_argnums=(1,))
def custom_ones_static(arr, n):
  count = n + 1
  return jnp.ones((count,)) * arr.sum()


a = jnp.ones((3,))
print(custom_ones(a))
print(custom_ones_static(a, 4))
