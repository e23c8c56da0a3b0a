# Refused: checkpoint's static_argnums covers positional arguments only, and the call passes a keyword.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("copies",))
def block(x, copies):
    return jnp.sin(jnp.tile(x, copies))


print(jax.checkpoint(block)(jnp.ones(2), copies=2))
