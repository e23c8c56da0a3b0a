import equinox as eqx
import jax
import jax.numpy as jnp


class BlockScale(eqx.Module):
    scales: jax.Array
    split_idxs: jax.Array

    def __init__(self, sizes):
        self.scales = jnp.arange(1.0, len(sizes) + 1.0)
        self.split_idxs = jnp.cumsum(jnp.array(sizes[:-1]))

    def __call__(self, x):
        parts = jnp.split(x, self.split_idxs)
        return jnp.concatenate([p * s for p, s in zip(parts, self.scales)])


scale = BlockScale((2, 1, 3))
print(scale(jnp.ones(6)).tolist())
print(jax.jit(jax.vmap(scale))(jnp.ones((2, 6))).tolist())
