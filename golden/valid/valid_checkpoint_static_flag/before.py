# jax.checkpoint's documented pattern (the `static_argnums` example of its docstring): the
# flag a Python `if` tests is static, so checkpoint hands it over as the Python value it is.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.checkpoint, static_argnums=(1,))
def layer(x, use_sin):
    if use_sin:
        return jnp.sin(x)
    return jnp.cos(x)


print(round(float(layer(1.0, True)), 4), round(float(jax.grad(layer)(1.0, False)), 4))
