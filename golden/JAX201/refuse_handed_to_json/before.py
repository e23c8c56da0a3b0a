# The config is handed to other code (json) before the call.
import json
from functools import partial

import jax
import jax.numpy as jnp

CONFIG = {"scale": 2.0, "layers": [8, 8]}
print(json.dumps(CONFIG))


@partial(jax.jit, static_argnames=("config",))
def run(x, config):
    return x * config["scale"] * len(config["layers"])


print(run(jnp.ones(2), CONFIG))
