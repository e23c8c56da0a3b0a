# The config is changed after it is built: freezing it would make that line fail; with
# --unsafe-fixes it stops being static instead (the item assigned is an array, which no frozen copy could hash).
from functools import partial

import jax
import jax.numpy as jnp

CONFIG = {"scale": 2.0}
CONFIG["scale"] = jnp.float32(3.0)


@partial(jax.jit, static_argnames=("config",))
def scale(x, config):
    return x * config["scale"]


print(scale(jnp.ones(2), CONFIG))
