# Cut down from a PPO rollout with an equinox actor that contains Dropout.
# equinox.Module / eqx.nn.Dropout are replaced by pure-JAX dataclass pytrees
# (every field, including the `inference` flag, is a pytree leaf, as in equinox).
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Dropout:
    p: float = 0.5
    inference: bool = dataclasses.field(default=False, metadata=dict(static=True))

    def __call__(self, x, key=None):
        if self.inference:
            return x
        q = 1 - jax.lax.stop_gradient(self.p)
        mask = jax.random.bernoulli(key, q, x.shape)
        return jnp.where(mask, x / q, 0)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class ResidualLayer:
    weight: jax.Array
    dropout: Dropout

    def __call__(self, x, key):
        return x + self.dropout(jnp.tanh(self.weight @ x), key=key)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Actor:
    residuallayers: list
    head: jax.Array

    def __call__(self, obs, key):
        keys = jax.random.split(key, len(self.residuallayers))
        x = obs
        for layer, k in zip(self.residuallayers, keys):
            x = layer(x, k)
        return jnp.tanh(self.head @ x)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class RunnerState:
    actor: Actor
    env_state: jax.Array
    rng: jax.Array


def make_actor(key, obs_dim, act_dim, depth=2):
    keys = jax.random.split(key, depth + 1)
    layers = [ResidualLayer(0.3 * jax.random.normal(k, (obs_dim, obs_dim)), Dropout(p=0.1, inference=True))
              for k in keys[:-1]]
    return Actor(layers, 0.3 * jax.random.normal(keys[-1], (act_dim, obs_dim)))


def env_step(env_state, action):
    return 0.9 * env_state + 0.1 * jnp.concatenate([action, action])


def _env_step(runner_state, unused):
    actor, env_state, rng = runner_state.actor, runner_state.env_state, runner_state.rng
    rng, _rng = jax.random.split(rng)
    action = actor(env_state, _rng)
    env_state = env_step(env_state, action)
    runner_state = RunnerState(actor, env_state, rng)
    return runner_state, (env_state, action)


actor = make_actor(jax.random.PRNGKey(0), obs_dim=4, act_dim=2)
runner_state = RunnerState(actor, jnp.ones(4), jax.random.PRNGKey(1))

# Do rollout of single trajactory
num_steps = 5
runner_state, trajectory_batch = jax.lax.scan(
    _env_step, runner_state, None, num_steps
)
obs, actions = trajectory_batch
print(np.round(np.asarray(actions, dtype=np.float64), 4).tolist())
print(np.round(np.asarray(runner_state.env_state, dtype=np.float64), 4).tolist())
