import jax
import jax.numpy as jnp
import numpy as np

GRID = [0.0, 0.25, 0.5, 1.0]


def _validated(grid):
    if not (np.diff(np.asarray(grid)) > 0).all():  # checked on the concrete grid
        raise ValueError("the grid must be strictly increasing")
    return grid


def trapezoid(f, grid):
    grid = jnp.asarray(_validated(grid))
    values = jax.vmap(f)(grid)
    return jnp.sum(0.5 * (values[1:] + values[:-1]) * jnp.diff(grid))


@jax.jit
def integral(scale):
    return trapezoid(lambda t: scale * t ** 2, GRID)


print(integral(3.0))
