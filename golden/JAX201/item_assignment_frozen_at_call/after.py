# The config is changed after it is built (a number stored in it): the call gets a frozen copy.
from functools import partial

import jax
import jax.numpy as jnp
from frozendict import frozendict

CONFIG = {"scale": 2.0}
CONFIG["scale"] = 3.0


@partial(jax.jit, static_argnames=("config",))
def scale(x, config):
    return x * config["scale"]


print(scale(jnp.ones(2), frozendict(CONFIG)))
