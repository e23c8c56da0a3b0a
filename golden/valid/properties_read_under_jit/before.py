# Properties of a state read inside a jit (pgx's style): the side comes from NumPy on a
# static shape, `filled` stays an array, and the `.item()` property is read only
# outside the trace: nothing needs a tracer concrete.
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class Board(NamedTuple):
    cells: jax.Array

    @property
    def side(self) -> int:
        return int(np.sqrt(self.cells.shape[-1]))

    @property
    def filled(self) -> jax.Array:
        return jnp.sum(self.cells > 0)

    @property
    def ratio(self) -> float:
        return float(jnp.mean(self.cells).item())


@jax.jit
def score(board: Board) -> jax.Array:
    return board.filled * board.side


board = Board(jnp.arange(9))
print(int(score(board)), board.ratio)
