# Look-alike of aesara#43 that works: the static shape is wrapped in jnp.array,
# but the array is used as data (a scale and the output), never as a shape.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames=("shape",))
def reshape_scaled(x, shape):
    dims = jnp.array(shape, dtype=jnp.int32)
    return jnp.reshape(x, shape) / dims.sum(), dims


x = np.arange(6, dtype=np.float32)
y, dims = reshape_scaled(x, (2, 3))
print(y, dims)
