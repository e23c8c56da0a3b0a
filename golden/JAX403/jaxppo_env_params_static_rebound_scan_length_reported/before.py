import typing
from functools import partial

import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class EnvParams:
    target: jnp.ndarray
    max_steps_in_episode: int = 8


@struct.dataclass
class EnvState:
    pos: jnp.ndarray
    time: int


class PointEnv:
    """Minimal gymnax-style environment: move a point towards a target."""

    def reset_env(self, key, params: EnvParams):
        pos = jax.random.uniform(key, (2,), minval=-1.0, maxval=1.0)
        return pos, EnvState(pos=pos, time=0)

    def step_env(self, key, state: EnvState, action, params: EnvParams):
        pos = state.pos + 0.1 * jnp.clip(action, -1.0, 1.0)
        reward = -jnp.sum((pos - params.target) ** 2)
        time = state.time + 1
        done = time >= params.max_steps_in_episode
        return pos, EnvState(pos=pos, time=time), reward, done, {}


def generate_samples(env, env_params, agent, n_samples, n_agents, key):
    def _sample_step(carry, _):
        k, _agent, _state, _observation = carry
        k, k_noise, k_step = jax.random.split(k, 3)
        _action = _agent @ _observation + 0.1 * jax.random.normal(k_noise, (2,))
        new_observation, new_state, _reward, _done, _ = env.step_env(
            k_step, _state, _action, env_params
        )
        return (k, _agent, new_state, new_observation), (_observation, _action, _reward)

    key, reset_key = jax.random.split(key)
    observation, state = env.reset_env(reset_key, env_params)
    _, trajectories = jax.lax.scan(
        _sample_step, (key, agent, state, observation), None, length=n_samples
    )
    return trajectories


@partial(
    jax.jit,
    static_argnames=(
        "env",
        "env_params",
        "n_train",
        "n_train_env",
        "n_agents",
        "n_env_steps",
    ),
)
def train(
    key: jax.Array,
    env: PointEnv,
    env_params: EnvParams,
    agent: jax.Array,
    n_train: int,
    n_train_env: int,
    learning_rate: float,
    n_agents: typing.Optional[int] = None,
    n_env_steps: typing.Optional[int] = None,
):
    if n_env_steps is None:
        n_env_steps = env_params.max_steps_in_episode

    def _train_step(carry, _):
        _key, _agent = carry
        _sample_keys = jax.random.split(_key, n_train_env + 1)
        _key, _sample_keys = _sample_keys[0], _sample_keys[1:]

        obs, actions, rewards = jax.vmap(
            partial(generate_samples, env, env_params, _agent, n_env_steps, n_agents)
        )(_sample_keys)

        # crude policy-improvement step: move actions towards reward-weighted ones
        adv = rewards - rewards.mean()
        grad = jnp.einsum("ets,eti->si", adv[..., None] * actions, obs) / rewards.size
        _agent = _agent + learning_rate * grad
        return (_key, _agent), rewards.mean()

    (key, agent), mean_rewards = jax.lax.scan(
        _train_step, (key, agent), jnp.arange(n_train)
    )
    return key, agent, mean_rewards


if __name__ == "__main__":
    env = PointEnv()
    env_params = EnvParams(target=jnp.array([0.5, -0.5]))
    agent = jnp.zeros((2, 2))
    key, agent, mean_rewards = train(
        jax.random.PRNGKey(0), env, env_params, agent,
        n_train=5, n_train_env=4, learning_rate=0.5,
    )
    print("mean rewards:", [round(float(r), 4) for r in mean_rewards])
    print("agent:", [[round(float(v), 4) for v in row] for row in agent])
