"""An optional scale tested by truth in a jitted function, given Python floats."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("scale",))
def rescale(x, scale=None):
    if scale:
        x = x * scale
    return x


print(rescale(jnp.arange(3.0), 2.0))
print(rescale(jnp.arange(3.0), 0.0))
print(rescale(jnp.arange(3.0)))
