# Hand fix: the dict of numbers is an ordinary (traced) argument.
import jax
import jax.numpy as jnp

CONFIG = {"scale": 2.0}
CONFIG["scale"] = jnp.float32(3.0)


@jax.jit
def scale(x, config):
    return x * config["scale"]


print(scale(jnp.ones(2), CONFIG))
