"""Hand fix: the horizon is a Python int at every call, so jit treats it as static."""

import jax
import jax.numpy as jnp
from jax import lax


def rollout(state, horizon):
    def step(carry, _):
        return carry * 0.5 + 1.0, carry.sum()

    final, totals = lax.scan(step, state, None, length=horizon)
    return final, totals


rollout = jax.jit(rollout, static_argnums=1)
final, totals = rollout(jnp.ones(3), 4)
print(final, totals)
