"""A rollout whose horizon is read with .item() inside jit: every caller passes a Python int."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames=("horizon",))
def rollout(state, horizon):
    def step(carry, _):
        return carry * 0.5 + 1.0, carry.sum()

    final, totals = lax.scan(step, state, None, length=horizon)
    return final, totals


final, totals = rollout(jnp.ones(3), 4)
print(final, totals)
