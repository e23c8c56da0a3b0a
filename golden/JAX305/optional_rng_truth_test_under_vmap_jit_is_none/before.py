from typing import Any, Callable

import jax
import numpy as np
import optax
from flax import linen as nn
from flax import struct
from flax.training.train_state import TrainState
from jax import numpy as jnp


class Bandit:  # tiny gymnax-style env: reward 1 for the action matching the obs
    def reset(self, rng, params):
        obs = jax.random.randint(rng, (), 0, params.num_arms)
        return jax.nn.one_hot(obs, params.num_arms), obs

    def step(self, rng, state, action, params):
        reward = (action == state).astype(jnp.float32)
        obs, state = self.reset(rng, params)
        return obs, state, reward, jnp.array(True), {}


@struct.dataclass
class BanditParams:
    num_arms: int = struct.field(pytree_node=False, default=4)


class QNetwork(nn.Module):
    num_actions: int

    @nn.compact
    def __call__(self, obs):
        return nn.Dense(self.num_actions)(nn.relu(nn.Dense(32)(obs)))


class DQNTrainState(TrainState):
    env_state: Any
    last_obs: jax.Array
    rng: jax.Array

    def get_rng(self):
        rng, rng_new = jax.random.split(self.rng)
        return self.replace(rng=rng), rng_new


class DQNConfig(struct.PyTreeNode):
    # Non-static parameters
    env_params: Any
    gamma: float
    learning_rate: float

    # Static parameters
    total_timesteps: int = struct.field(pytree_node=False)
    eval_freq: int = struct.field(pytree_node=False)
    agent: nn.Module = struct.field(pytree_node=False)
    env: Any = struct.field(pytree_node=False)
    eval_callback: Callable = struct.field(pytree_node=False)
    num_envs: int = struct.field(pytree_node=False)


class DQN:
    @classmethod
    def train(cls, config, rng=None, train_state=None):
        if not (train_state or rng):
            raise ValueError("Either train_state or rng must be provided")

        ts = train_state or cls.initialize_train_state(config, rng)

        def eval_iteration(ts, unused):
            ts = jax.lax.fori_loop(
                0,
                np.ceil(config.eval_freq / config.num_envs).astype(int),
                lambda _, ts: cls.train_iteration(config, ts),
                ts,
            )
            return ts, config.eval_callback(config, ts, ts.rng)

        ts, evaluation = jax.lax.scan(
            eval_iteration, ts, None,
            np.ceil(config.total_timesteps / config.eval_freq).astype(int),
        )
        return ts, evaluation

    @classmethod
    def initialize_train_state(cls, config, rng):
        rng, rng_agent, rng_reset = jax.random.split(rng, 3)
        obs, _ = config.env.reset(rng_reset, config.env_params)
        q_params = config.agent.init(rng_agent, obs[None])
        rng_reset = jax.random.split(rng_reset, config.num_envs)
        obs, env_state = jax.vmap(config.env.reset, in_axes=(0, None))(rng_reset, config.env_params)
        return DQNTrainState.create(apply_fn=config.agent.apply, params=q_params,
                                    tx=optax.adam(config.learning_rate),
                                    env_state=env_state, last_obs=obs, rng=rng)

    @classmethod
    def train_iteration(cls, config, ts):
        actions = jnp.argmax(ts.apply_fn(ts.params, ts.last_obs), axis=-1)
        ts, rng_steps = ts.get_rng()
        rng_steps = jax.random.split(rng_steps, config.num_envs)
        vmap_step = jax.vmap(config.env.step, in_axes=(0, 0, 0, None))
        next_obs, env_state, rewards, dones, _ = vmap_step(
            rng_steps, ts.env_state, actions, config.env_params)

        def loss_fn(params):
            q = ts.apply_fn(params, ts.last_obs)
            q = jnp.take_along_axis(q, actions[:, None], axis=1).squeeze(1)
            return jnp.mean((q - rewards) ** 2)

        ts = ts.apply_gradients(grads=jax.grad(loss_fn)(ts.params))
        return ts.replace(last_obs=next_obs, env_state=env_state)


def eval_callback(config, ts, rng):
    q = ts.apply_fn(ts.params, jnp.eye(config.env_params.num_arms))
    return jnp.mean(jnp.argmax(q, axis=-1) == jnp.arange(config.env_params.num_arms))


config = DQNConfig(env_params=BanditParams(), gamma=0.99, learning_rate=1e-2,
                   total_timesteps=2000, eval_freq=500, agent=QNetwork(4), env=Bandit(),
                   eval_callback=eval_callback, num_envs=10)
keys = jax.random.split(jax.random.PRNGKey(0), 3)
vmap_train = jax.vmap(jax.jit(DQN.train), in_axes=(None, 0))
train_state, evaluation = vmap_train(config, keys)
print("greedy accuracy per eval step:", evaluation)
