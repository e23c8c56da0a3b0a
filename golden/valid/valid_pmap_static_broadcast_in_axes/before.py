# Valid look-alike from jax-ml/jax#6302 (Behaviour of pmap is unclear when
# `static_broadcasted_argnums` is combined with `in_axes`): C is statically
# broadcast and also listed (as None) in in_axes, B is traced-and-broadcast.
# The Python int C is only used arithmetically; this runs on one CPU device.
from functools import partial

import jax
import jax.numpy as jnp
from jax import pmap


@partial(pmap, static_broadcasted_argnums=(2,), in_axes=(0, None, None, 0))
def my_function(A, B, C, D):
    return A * B + C * D


n = jax.local_device_count()
A = jnp.ones((n, 3))
B = jnp.arange(3.0)
D = jnp.full((n, 3), 2.0)
print(my_function(A, B, 2, D))
print(my_function(A, B, 3, D))
