# A jitted loss whose optional extras default to an empty dict with `or`: the dict a call
# passes is a pytree of tracers, and `or` asks for the truth of the dict, never of a tracer.
from typing import Optional

import jax
import jax.numpy as jnp


@jax.jit
def loss(params, x, extras: Optional[dict] = None):
    extras = extras or {}
    penalty = sum(jnp.sum(v ** 2) for v in extras.values())
    return jnp.sum((params * x) ** 2) + penalty


params = jnp.array([1.0, 2.0])
x = jnp.array([0.5, -1.0])
print(float(loss(params, x)))
print(float(loss(params, x, {"w": jnp.array([3.0])})))
