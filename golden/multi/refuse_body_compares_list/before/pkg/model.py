from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("config",))
def apply(x, config):
    if config["widths"] == [1, 2, 3]:
        return (x * 3).sum()
    return x.sum()
