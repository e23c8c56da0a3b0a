"""Works: the view's corner comes back from a helper as a tuple of traced ints, and the crop is a
dynamic_slice of a static size, which takes traced starts (what navix does today)."""
import jax
import jax.numpy as jnp

RADIUS = 2


def view_corner(position, grid_size):
    lo = jnp.clip(position - RADIUS, 0, grid_size - (2 * RADIUS + 1))
    return lo[0], lo[1]


def crop(grid, position):
    row, col = view_corner(position, grid.shape[0])
    return jax.lax.dynamic_slice(grid, (row, col), (2 * RADIUS + 1, 2 * RADIUS + 1))


grid = jnp.arange(100).reshape(10, 10)
positions = jnp.asarray([[5, 5], [1, 8], [9, 0]])
views = jax.jit(jax.vmap(crop, in_axes=(None, 0)))(grid, positions)
print(views.shape, views[:, 0, 0])
