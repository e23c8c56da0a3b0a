# The reps argument is already static, but the function still wraps it in
# jnp.asarray (aesara#43's MakeVector): under jit the wrap records an array.
import functools

import jax
import jax.numpy as jnp
import numpy as np

REPS = (3, 1)


@functools.partial(jax.jit, static_argnums=(1,))
def tile_rows(x, reps):
    return jnp.tile(x, reps) + 1.0


x = np.ones((2, 2), dtype=np.float32)
print(tile_rows(x, (1, 2)).shape)
print(tile_rows(x, REPS).sum())
