# Freeway-MinAtar style environment written in the gymnax style
# (RobertTLange/gymnax#74): step_agent returns `win_cond.item()`.
from typing import Any, Dict, Tuple, Union

from flax import struct
import jax
from jax import lax
import jax.numpy as jnp


@struct.dataclass
class EnvState:
    pos: int
    cars: jnp.ndarray
    move_timer: int
    time: int
    terminal: bool


@struct.dataclass
class EnvParams:
    player_speed: int = 3
    max_steps_in_episode: int = 2500


def step_agent(action, state: EnvState, params: EnvParams) -> Tuple[EnvState, jnp.ndarray, bool]:
    """Perform 1st part of step transition for agent."""
    cond_up = jnp.logical_and(action == 2, state.move_timer == 0)
    cond_down = jnp.logical_and(action == 4, state.move_timer == 0)
    any_cond = jnp.logical_or(cond_up, cond_down)
    state_up = jnp.maximum(0, state.pos - 1)
    state_down = jnp.minimum(9, state.pos + 1)
    pos = (1 - any_cond) * state.pos + cond_up * state_up + cond_down * state_down
    move_timer = jax.lax.select(any_cond, params.player_speed, state.move_timer)
    # Check win cond. - increase reward, randomize cars, reset agent position
    win_cond = pos == 0
    reward = win_cond * 1.0
    pos = jax.lax.select(win_cond, 9, pos)
    return state.replace(pos=pos, move_timer=move_timer), reward, win_cond.reshape(())


def step_cars(state: EnvState) -> EnvState:
    """Move cars one column in their direction and reset the chicken on a hit."""
    cars = state.cars.at[:, 0].set((state.cars[:, 0] + state.cars[:, 2]) % 10)
    hit = jnp.any(jnp.logical_and(cars[:, 0] == 4, cars[:, 1] == state.pos))
    pos = jax.lax.select(hit, 9, state.pos)
    return state.replace(cars=cars, pos=pos,
                         move_timer=jnp.maximum(state.move_timer - 1, 0))


class MinFreeway:
    """JAX Compatible version of Freeway MinAtar environment."""

    def __init__(self):
        self.action_set = jnp.array([0, 2, 4])

    @property
    def default_params(self) -> EnvParams:
        return EnvParams()

    def step_env(self, key, state: EnvState, action, params: EnvParams):
        a = self.action_set[action]
        state, reward, win_cond = step_agent(a, state, params)
        key_speed, key_dirs = jax.random.split(key)
        directions = jax.random.choice(key_dirs, jnp.array([-1, 1]), shape=(8,))
        win_cars = state.cars.at[:, 2].set(directions)
        state = state.replace(cars=jax.lax.select(win_cond, win_cars, state.cars))
        state = step_cars(state)
        state = state.replace(time=state.time + 1)
        done = state.time >= params.max_steps_in_episode
        state = state.replace(terminal=done)
        return (lax.stop_gradient(state.pos), lax.stop_gradient(state),
                reward.astype(jnp.float32), done, {})

    def reset_env(self, key, params: EnvParams) -> EnvState:
        cars = jnp.stack([jnp.arange(8) % 10, jnp.arange(1, 9),
                          jnp.where(jnp.arange(8) % 2 == 0, 1, -1)], axis=1)
        return EnvState(pos=9, cars=cars, move_timer=params.player_speed,
                        time=0, terminal=False)


env = MinFreeway()
env_params = env.default_params
key = jax.random.PRNGKey(0)
state = env.reset_env(key, env_params)
step = jax.jit(env.step_env)

total_reward = 0.0
for t in range(40):
    key, key_step = jax.random.split(key)
    obs, state, reward, done, info = step(key_step, state, 1, env_params)
    total_reward += float(reward)
print("final pos:", int(state.pos), "time:", int(state.time))
print("total reward:", total_reward)
