# A caller passes an attribute: it cannot be proven a hashable Python value, so the fix is unsafe.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["n"])
def ones(n, scale):
    return jnp.ones(n) * scale


@partial(jax.jit, static_argnames=["n"])
def zeros(n, scale):
    return jnp.zeros(n) + scale


@jax.jit
def make(n, scale, flag):
    return jax.lax.cond(flag, ones, zeros, n, scale)


class Settings:
    width = 3


settings = Settings()
print(make(settings.width, 2.0, True))
