# Inspired by jax-ml/jax#7129 ("jnp.nonzero zero padding behavior is
# confusing"): the maintainer's utility wraps jnp.nonzero with a static `size`
# so it can run under jit, and replaces the padding with a custom fill value.
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=('size',))
def nonzero_with_configurable_padding(arr, *, size=None, fill_value=-1):
  out = jnp.nonzero(arr, size=size)
  num_nonzero = jnp.count_nonzero(arr)
  return tuple(jnp.where(jnp.arange(size) < num_nonzero, o, fill_value)
               for o in out)


x = jnp.zeros(5)
print(nonzero_with_configurable_padding(x, size=1)[0].tolist())
x = jnp.ones(5)
print(nonzero_with_configurable_padding(x, size=1)[0].tolist())
x = jnp.array([0, 3, 0, 7, 1])
print(nonzero_with_configurable_padding(x, size=4, fill_value=-9)[0].tolist())
