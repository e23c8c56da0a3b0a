import jax
import jax.numpy as jnp

BLOCK_SIZES = [3, 2, 4]
SPLIT_AT = jnp.cumsum(jnp.array(BLOCK_SIZES[:-1]))


def block_norms(v):
    blocks = jnp.split(v, SPLIT_AT)
    return jnp.stack([jnp.linalg.norm(b) for b in blocks])


print(jax.jit(block_norms)(jnp.arange(9.0)).round(4).tolist())
