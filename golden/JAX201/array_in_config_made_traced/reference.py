# Hand fix: the config is data, so it is an ordinary (traced) argument; no static_argnames.
import jax
import jax.numpy as jnp

WEIGHTS = jnp.array([1.0, 2.0, 3.0])
CONFIG = {"weights": WEIGHTS, "bias": 0.5}


@jax.jit
def score(x, config):
    return x @ config["weights"] + config["bias"]


print(score(jnp.ones(3), CONFIG))
