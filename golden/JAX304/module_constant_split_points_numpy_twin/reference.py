import jax
import jax.numpy as jnp
import numpy as np

BLOCK_SIZES = [3, 2, 4]
SPLIT_AT = np.cumsum(np.array(BLOCK_SIZES[:-1]))


def block_norms(v):
    blocks = jnp.split(v, SPLIT_AT)
    return jnp.stack([jnp.linalg.norm(b) for b in blocks])


print(jax.jit(block_norms)(jnp.arange(9.0)).round(4).tolist())
