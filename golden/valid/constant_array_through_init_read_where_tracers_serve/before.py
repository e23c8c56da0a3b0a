import jax
import jax.numpy as jnp
import numpy as np


class Clipper:
    def __init__(self, bins, scale):
        self._bins = bins
        self._scale = bins / scale

    def clip(self, x):
        return jnp.minimum(x * self._scale, self._bins)

    def flatten(self, indices):
        return jnp.ravel_multi_index(indices, self._dims, mode="clip")


class Grid(Clipper):
    def __init__(self, bins, scale):
        super().__init__(bins, scale)
        self._dims = tuple(int(b) + 1 for b in np.asarray(bins))


grid = Grid(bins=4 * jnp.array([1, 1]), scale=jnp.array([2.0, 2.0]))


def step(carry, t):
    point = jnp.stack([t, 2 * t]).astype(jnp.float32)
    cell = grid.clip(point).astype(jnp.int32)
    return carry, grid.flatten((cell[0], cell[1]))


print(jax.lax.scan(step, 0, jnp.arange(4))[1])
