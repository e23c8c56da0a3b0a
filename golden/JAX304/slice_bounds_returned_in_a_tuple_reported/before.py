from typing import Tuple

import jax
import jax.numpy as jnp
from flax import struct
from jax import Array


@struct.dataclass
class Player:
    position: Array
    direction: Array
    """The direction the entity: 0 = east, 1 = south, 2 = west, 3 = north"""


@struct.dataclass
class State:
    grid: Array
    player: Player


def translate(position: Array, direction: Array, modulus: Array = jnp.asarray(1)) -> Array:
    moves = (
        lambda position: position + jnp.asarray((0, modulus)),  # east
        lambda position: position + jnp.asarray((modulus, 0)),  # south
        lambda position: position + jnp.asarray((0, -modulus)),  # west
        lambda position: position + jnp.asarray((-modulus, 0)),  # north
    )
    return jax.lax.switch(direction, moves, position)


def translate_forward(position: Array, forward_direction: Array, modulus: Array):
    return translate(position, forward_direction, modulus)


def translate_left(position: Array, forward_direction: Array, modulus: Array):
    return translate(position, (forward_direction + 3) % 4, modulus)


def translate_right(position: Array, forward_direction: Array, modulus: Array):
    return translate(position, (forward_direction + 1) % 4, modulus)


def _view_extremes(state: State, radius: Array) -> Tuple[Array, Array]:
    pos_left = translate_left(state.player.position, state.player.direction, radius)
    pos_forward_left = translate_forward(pos_left, state.player.direction, radius)
    pos_right = translate_right(state.player.position, state.player.direction, radius)
    pos_forward_right = translate_forward(pos_right, state.player.direction, radius)

    all_pos = jnp.stack([pos_left, pos_forward_left, pos_right, pos_forward_right], axis=0)

    north_west = jnp.min(all_pos, axis=0)
    south_east = jnp.max(all_pos, axis=0)

    return north_west, south_east


def _first_person_crop(state: State, radius: Array) -> Array:
    north_west, south_east = _view_extremes(state, radius)
    view = state.grid[north_west[0]:south_east[0] + 1, north_west[1]:south_east[1] + 1]
    view = jnp.rot90(view, k=state.player.direction + 1)
    return view


def first_person(state: State) -> Array:
    return _first_person_crop(state, radius=jnp.asarray(2))


# a batch of environments, each agent at its own position, facing its own direction
grid = jnp.arange(100).reshape(10, 10)
players = Player(
    position=jnp.asarray([[5, 5], [4, 6], [6, 3]]),
    direction=jnp.asarray([0, 1, 3], dtype=jnp.int32),
)
states = State(grid=jnp.broadcast_to(grid, (3, 10, 10)), player=players)

observe = jax.jit(jax.vmap(first_person))
obs = observe(states)
print(obs.shape)
print(obs[0])
