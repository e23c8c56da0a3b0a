# A parameter annotated jax.Array in static_argnames; the call passes a typed key.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["key"])
def dropout(x, key: jax.Array, rate=0.5):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x, 0.0)


print(dropout(jnp.ones(4), jax.random.key(1), rate=0.0))
