from functools import partial

import jax
import jax.numpy as jnp

CONFIG = {"scale": 2.0, "shift": 1}


@partial(jax.jit, static_argnames=("config",))
def apply(x, config):
    return x * config["scale"] + config["shift"]


if __name__ == "__main__":
    from pkg.report import describe

    print(apply(jnp.ones(2), CONFIG))
    print(describe())
