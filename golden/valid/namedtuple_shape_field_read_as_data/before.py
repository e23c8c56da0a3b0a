# A NamedTuple with a field named `shape`, read as data (its values summed), and a real array's
# .shape used as a size: neither needs anything static.
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Box(NamedTuple):
    shape: jnp.ndarray
    origin: jnp.ndarray


@jax.jit
def volume_and_padding(box: Box, grid):
    pad = jnp.zeros(grid.shape[0])
    return jnp.prod(box.shape) + jnp.sum(box.origin) + pad.sum()


box = Box(jnp.array([2.0, 3.0, 4.0]), jnp.array([0.5, 0.5, 0.5]))
print(float(volume_and_padding(box, jnp.ones((5, 2)))))
