# The closure form: the plain dict is closed over by a wrapper jitted once.
import json
from functools import partial

import jax
import jax.numpy as jnp

SETTINGS = '{"scale": 2.0, "layers": [3, 3]}'


def run(x, config):
    return x * config["scale"] + len(config["layers"])


def main():
    config = json.loads(SETTINGS)
    run_configured = jax.jit(partial(run, config=config))
    print([float(v) for v in run_configured(jnp.ones(2))])


main()
