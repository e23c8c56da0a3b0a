# The static value is an attribute: it cannot be proven static, so the fix is unsafe (applied here with --unsafe-fixes).
from functools import partial

import jax
import jax.numpy as jnp


class Config:
    depth = 3


@partial(jax.jit, static_argnames=["depth"])
def deep(depth, x):
    return jnp.stack([x] * depth)


@partial(jax.jit, static_argnames=["depth"])
def shallow(depth, x):
    return jnp.zeros((depth,) + x.shape)


cfg = Config()
print(jax.lax.cond(True, deep, shallow, cfg.depth, jnp.ones(2)))
