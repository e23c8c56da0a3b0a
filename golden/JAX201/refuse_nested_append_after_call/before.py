# The same dict also feeds code that needs it mutable: a nested list grows after the call.
from functools import partial

import jax
import jax.numpy as jnp

CONFIG = {"layers": [4, 4]}


@partial(jax.jit, static_argnames=("config",))
def width(x, config):
    return x * sum(config["layers"])


print(width(jnp.ones(2), CONFIG))
CONFIG["layers"].append(8)
print(width(jnp.ones(2), CONFIG))
