# The jitted body compares a list from the config: a tuple would silently compare unequal.
from functools import partial

import jax
import jax.numpy as jnp

CONFIG = {"layers": [64, 64], "scale": 2.0}


@partial(jax.jit, static_argnames=("config",))
def head(x, config):
    if config["layers"] == [64, 64]:
        return x * config["scale"]
    return x


print(head(jnp.ones(2), CONFIG))
