# range(int(n)) with n static on the jit, but the module vmaps the function.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="n")
def halve(n, x):
    for _ in range(int(n)):
        x = x / 2
    return x


print(jax.vmap(halve, in_axes=(0, None))(jnp.array([0, 1, 2]), jnp.full(2, 8.0)))
