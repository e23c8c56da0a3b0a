# Cut down from jumanji's sliding-tile generator (instadeepai/jumanji, "make
# _make_random_move fn jittable"): the valid moves are picked out with a boolean mask
# that depends on the traced empty-tile position, so the result's size is data.
import jax
from jax import numpy as jnp

MOVES = jnp.array([[-1, 0], [0, 1], [1, 0], [0, -1]])  # up, right, down, left


@jax.jit
def make_random_move(key, empty_tile_position, grid_size=3):
    new_positions = empty_tile_position + MOVES
    valid_moves_mask = (new_positions >= 0) & (new_positions < grid_size)
    valid_moves_mask = jnp.all(valid_moves_mask, axis=-1)
    all_move_indices = jnp.arange(len(MOVES))
    valid_move_indices = all_move_indices[valid_moves_mask]
    move_index = jax.random.choice(key, valid_move_indices, shape=())
    return empty_tile_position + MOVES[move_index]


print(make_random_move(jax.random.PRNGKey(0), jnp.array([2, 2])).tolist())
