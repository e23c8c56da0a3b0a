from functools import partial

import jax
import jax.numpy as jnp

import pkg.tweaks
from pkg.configs import CONFIG


@partial(jax.jit, static_argnames=("config",))
def apply(x, config):
    return x * config["scale"]


print(apply(jnp.ones(2), CONFIG))
