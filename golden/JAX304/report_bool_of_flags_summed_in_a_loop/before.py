import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class EnvState:
    """State of the environment."""

    player_x: int
    player_y: int
    move_speed: int
    move_timer: int
    entities: jnp.ndarray
    time: int
    terminal: bool


def step_entities(
    state: EnvState,
) -> tuple[EnvState, jnp.ndarray, bool]:
    """Update positions of the entities and return reward, done."""
    done, reward = 0, jnp.array(0)
    # Loop over entities and check for collisions - either gold or enemy
    entities = state.entities
    for i in range(8):
        x = entities[i]
        slot_filled = x[4] != 0
        # Get boolean for any collision with either gold or enemy
        coords = jnp.logical_and(x[0] == state.player_x, x[1] == state.player_y)
        collision = jnp.logical_and(coords, slot_filled)
        # If collision with gold: empty gold and give positive reward
        collision_gold = jnp.logical_and(collision, x[3])
        reward += collision_gold
        # Set row i to zeros if collision with gold
        entities = entities.at[i].set(x * (1 - collision_gold))

        # If collision with enemy: terminate the episode
        collision_enemy = jnp.logical_and(collision, 1 - x[3])
        done += collision_enemy

    time_to_move = state.move_timer == 0
    move_timer = jax.lax.select(time_to_move, state.move_speed, state.move_timer)
    return (
        state.replace(entities=entities, move_timer=move_timer),
        reward,
        bool(done > 0),
    )


@jax.jit
def step(state):
    state, reward, done = step_entities(state)
    state = state.replace(time=state.time + 1, terminal=done)
    return state, reward


entities = jnp.zeros((8, 5), dtype=int)
entities = entities.at[0].set(jnp.array([5, 5, 1, 1, 1]))  # gold on the player
entities = entities.at[1].set(jnp.array([2, 3, 0, 0, 1]))  # enemy elsewhere
state = EnvState(player_x=5, player_y=5, move_speed=5, move_timer=3,
                 entities=entities, time=0, terminal=False)
state, reward = step(state)
print(int(reward), bool(state.terminal), int(state.time), state.entities[0].tolist())
