import equinox as eqx
import jax
import jax.numpy as jnp


class Blockwise(eqx.Module):
    weights: tuple
    split_at: jax.Array
    axis: int

    def __init__(self, weights, axis=0):
        self.weights = weights
        self.axis = axis
        shapes = [w.shape for w in weights]
        axis = range(len(shapes[0]))[axis]
        self.split_at = jnp.cumsum(jnp.array([s[axis] for s in shapes[:-1]]))

    def apply(self, x):
        pieces = jnp.split(x, self.split_at, axis=self.axis)
        return jnp.concatenate([p * w for p, w in zip(pieces, self.weights)], axis=self.axis)


layer = Blockwise((jnp.full(2, 0.5), jnp.full(3, 2.0)))
print(layer.apply(jnp.ones(5)).tolist())
print(jax.jit(jax.vmap(layer.apply))(jnp.arange(10.0).reshape(2, 5)).tolist())
