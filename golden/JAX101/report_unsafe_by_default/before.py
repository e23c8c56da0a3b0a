# The static value comes from a function call: not provably static, so by default only reported.
from functools import partial

import jax
import jax.numpy as jnp


def depth_from_config():
    return 3


@partial(jax.jit, static_argnames=["depth"])
def deep(depth, x):
    return jnp.stack([x] * depth)


@partial(jax.jit, static_argnames=["depth"])
def shallow(depth, x):
    return jnp.zeros((depth,) + x.shape)


print(jax.lax.cond(True, deep, shallow, depth_from_config(), jnp.ones(2)))
