# The config is handed to a helper before the call, and the helper fills in defaults.
from functools import partial

import jax
import jax.numpy as jnp


def with_defaults(cfg):
    cfg.setdefault("shift", 0.0)
    return cfg


@partial(jax.jit, static_argnames=("config",))
def affine(x, config):
    return x * config["scale"] + config["shift"]


def main():
    config = {"scale": 2.0}
    with_defaults(config)
    print(affine(jnp.ones(2), config))


main()
