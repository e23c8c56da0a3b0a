# An outer jit around a function that is already jitted with a static argument.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def running_mean(x, window):
    kernel = jnp.ones(window) / window
    return jnp.convolve(x, kernel, mode="valid")


fast = jax.jit(running_mean)
print(fast(jnp.arange(6.0), 2))
