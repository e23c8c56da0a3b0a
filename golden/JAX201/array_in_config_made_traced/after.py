# The config holds an array: no frozen form is hashable (2b), but it is plain data (a number and an array),
# so it stops being static and jit traces it.
from functools import partial

import jax
import jax.numpy as jnp

WEIGHTS = jnp.array([1.0, 2.0, 3.0])
CONFIG = {"weights": WEIGHTS, "bias": 0.5}


@jax.jit
def score(x, config):
    return x @ config["weights"] + config["bias"]


print(score(jnp.ones(3), CONFIG))
