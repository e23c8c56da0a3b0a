# An inline jit with a jnp scalar in its static slot: jnp.float32(2.0) is an array (np.float32 would hash).
import jax
import jax.numpy as jnp


def scale(x, s):
    return x * s


print(jax.jit(scale)(jnp.arange(3.0), jnp.float32(2.0)))
