# Cut down from jumanji's sliding-tile generator (instadeepai/jumanji, "make
# _make_random_move fn jittable"): the valid moves are picked out with a boolean mask
# that depends on the traced empty-tile position, so the result's size is data.
import jax
from jax import numpy as jnp

MOVES = jnp.array([[-1, 0], [0, 1], [1, 0], [0, -1]])  # up, right, down, left


@jax.jit
def make_random_move(key, empty_tile_position, grid_size=3):
    new_positions = empty_tile_position + MOVES
    valid_moves_mask = jnp.all((new_positions >= 0) & (new_positions < grid_size), axis=-1)
    move = jax.random.choice(key, MOVES, shape=(), p=valid_moves_mask)
    return empty_tile_position + move


print(make_random_move(jax.random.PRNGKey(0), jnp.array([2, 2])).tolist())
