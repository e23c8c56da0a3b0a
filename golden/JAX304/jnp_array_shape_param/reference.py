# A graph compiler in miniature (aesara#43): the jitted graph builds the
# Reshape's target shape with jnp.array from the graph's shape input.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames=("axis", "shape"))
def reshape_and_sum(x, shape, axis=0):
    target = np.array(shape, dtype=np.int32)  # NumPy: concrete while tracing
    return jnp.reshape(x, target).sum(axis=axis)


x = np.arange(6, dtype=np.float32)
print(reshape_and_sum(x, (2, 3)))
print(reshape_and_sum(x, (3, 2), axis=1))
