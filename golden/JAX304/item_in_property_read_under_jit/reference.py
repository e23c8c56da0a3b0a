from typing import NamedTuple

import jax
from jax import Array
from jax import numpy as jnp


class GameState(NamedTuple):
    step_count: Array = jnp.int32(0)
    # ids of representative stone id (smallest) in the connected stones
    chain_id_board: Array = jnp.zeros(19 * 19, dtype=jnp.int32)
    ko: Array = jnp.int32(-1)

    @property
    def color(self) -> Array:
        return self.step_count % 2

    @property
    def size(self) -> Array:
        return jnp.sqrt(self.chain_id_board.shape[-1]).astype(jnp.int32)


class Game:
    def __init__(self, size: int = 19):
        self.size = size

    def init(self) -> GameState:
        return GameState(chain_id_board=jnp.zeros(self.size**2, dtype=jnp.int32))


def _neighbour(xy, size):
    dx = jnp.int32([-1, +1, 0, 0])
    dy = jnp.int32([0, 0, -1, +1])
    xs = xy // size + dx
    ys = xy % size + dy
    on_board = (0 <= xs) & (xs < size) & (0 <= ys) & (ys < size)
    return jnp.where(on_board, xs * size + ys, -1)


@jax.jit
def neighbours_of(state: GameState, action: Array) -> Array:
    # uses the board size stored in the state
    return _neighbour(action, state.size)


game = Game(size=9)
state = game.init()
print("eager size:", int(state.size))
print("neighbours of 10:", neighbours_of(state, jnp.int32(10)).tolist())
print("neighbours of 0:", neighbours_of(state, jnp.int32(0)).tolist())
