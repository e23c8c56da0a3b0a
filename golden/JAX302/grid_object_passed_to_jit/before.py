# Finite-difference Laplacian on a 1-D grid.  Grid is a plain Python object
# holding the grid spacing; it is passed by keyword to the jitted function.
import jax
import jax.numpy as jnp


class Grid:
    def __init__(self, n, spacing):
        self.n = n
        self.spacing = spacing

    def coords(self):
        return jnp.arange(self.n) * self.spacing


@jax.jit
def laplacian(u, grid):
    h2 = grid.spacing ** 2
    return (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1)) / h2


grid = Grid(8, 0.5)
u = grid.coords() ** 2
print([round(float(v), 3) for v in laplacian(u, grid=grid)[1:-1]])
