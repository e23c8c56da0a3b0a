# A value inside the config comes from a call jaxfix cannot follow: the fix is unsafe.
from functools import partial

import jax
import jax.numpy as jnp


def pick_activation(name):
    return {"relu": jax.nn.relu, "tanh": jnp.tanh}[name]


CONFIG = {"act": pick_activation("relu"), "gain": 2.0}


@partial(jax.jit, static_argnames=("config",))
def layer(x, config):
    return config["act"](x) * config["gain"]


print([float(v) for v in layer(jnp.array([-1.0, 1.0]), CONFIG)])
