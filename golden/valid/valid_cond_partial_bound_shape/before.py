# Valid look-alike cut down from instadeepai/jumanji PR #303 ("Use
# functools.partial instead of lambdas for lax.cond branches"): reward and
# observation are cond operands, the per-agent shape (a Python int that sizes
# the discount) is bound by keyword with partial. jumanji's TimeStep helpers
# are re-staged in a few lines.
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class TimeStep(NamedTuple):
    reward: jnp.ndarray
    discount: jnp.ndarray
    observation: jnp.ndarray


def termination(reward, observation, extras=None, shape=()):
    return TimeStep(reward=reward, discount=jnp.zeros(shape), observation=observation)


def transition(reward, observation, discount=None, extras=None, shape=()):
    discount = discount if discount is not None else jnp.ones(shape)
    return TimeStep(reward=reward, discount=discount, observation=observation)


@jax.jit
def step(step_count, reward, observation):
    num_agents = 3
    done = step_count >= 5
    timestep = jax.lax.cond(
        done,
        partial(termination, shape=num_agents),
        partial(transition, shape=num_agents),
        reward,
        observation,
    )
    return timestep


for t in (4, 5):
    print(step(t, jnp.ones(3), jnp.zeros(2)).discount)
