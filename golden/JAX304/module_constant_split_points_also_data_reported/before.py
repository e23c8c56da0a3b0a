import jax
import jax.numpy as jnp

SPLIT_AT = jnp.cumsum(jnp.array([3, 2]))


@jax.jit
def block_sums(v):
    return [b.sum() for b in jnp.split(v, SPLIT_AT)]


print([float(s) for s in block_sums(jnp.arange(9.0))])
print((SPLIT_AT * 2).tolist())
