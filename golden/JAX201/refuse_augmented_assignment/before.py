# An augmented assignment merges more settings into the dict in place.
from functools import partial

import jax
import jax.numpy as jnp

CONFIG = {"scale": 2.0}
CONFIG |= {"shift": 1.0}


@partial(jax.jit, static_argnames=("config",))
def affine(x, config):
    return x * config["scale"] + config["shift"]


print(affine(jnp.ones(2), CONFIG))
