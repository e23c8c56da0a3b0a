# The count is static on the jit, but a caller passes it an array.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("scale",))
def smooth(x, steps, scale=0.5):
    def blend(_, c):
        return c * scale + (1 - scale) * x.mean()

    return jax.lax.fori_loop(0, steps, blend, x)


steps = jnp.array(3)
print(smooth(jnp.array([0.0, 8.0]), steps))
