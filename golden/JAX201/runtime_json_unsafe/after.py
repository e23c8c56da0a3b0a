# A config loaded at run time (here from a JSON string; in real code from a file).
import json
from functools import partial

import jax
import jax.numpy as jnp
from frozendict import deepfreeze

SETTINGS = '{"scale": 2.0, "layers": [3, 3]}'


@partial(jax.jit, static_argnames=("config",))
def run(x, config):
    return x * config["scale"] + len(config["layers"])


def main():
    config = json.loads(SETTINGS)
    print([float(v) for v in run(jnp.ones(2), deepfreeze(config))])


main()
