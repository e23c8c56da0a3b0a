import jax
import jax.numpy as jnp
from flax import struct

# tile ids
FLOOR, WALL, GOAL, END_OF_MAP = 1, 2, 6, 13


class EnvParams(struct.PyTreeNode):
    height: int = struct.field(pytree_node=False, default=9)
    width: int = struct.field(pytree_node=False, default=9)
    view_size: int = struct.field(pytree_node=False, default=7)


def empty_world(height, width):
    grid = jnp.zeros((height, width), dtype=jnp.uint8)
    grid = grid.at[:, :].set(FLOOR)
    return grid


def room(height, width):
    grid = empty_world(height, width)
    grid = grid.at[0, :].set(WALL).at[-1, :].set(WALL)
    grid = grid.at[:, 0].set(WALL).at[:, -1].set(WALL)
    return grid


def crop_field_of_view(grid, position, height, width):
    grid = jnp.pad(grid, pad_width=((height, height), (width, width)), constant_values=END_OF_MAP)
    # account for padding
    y = position[0] + height
    x = position[1] + width
    # agent looks "up": top left corner of the fov rectangle, then slice with static H, W
    start_indices = (y - height + 1, x - (width // 2))
    return jax.lax.dynamic_slice(grid, start_indices, (height, width))


class Empty:
    def _generate_problem(self, params: EnvParams, key: jax.Array):
        grid = room(params.height, params.width)
        grid = grid.at[params.height - 2, params.width - 2].set(GOAL)
        position = jax.random.randint(key, (2,), 1, jnp.array([params.height - 1, params.width - 1]))
        return grid, position

    def reset(self, params: EnvParams, key: jax.Array):
        grid, position = self._generate_problem(params, key)
        observation = crop_field_of_view(grid, position, params.view_size, params.view_size)
        return grid, observation


env = Empty()
params = EnvParams(height=6, width=7, view_size=3)

reset_fn = jax.jit(env.reset)
grid, observation = reset_fn(params, jax.random.PRNGKey(1))
print(grid.tolist())
print(observation.tolist())
