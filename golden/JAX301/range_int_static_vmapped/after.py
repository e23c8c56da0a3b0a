# range(int(n)) with n static on the jit, but the module vmaps the function.
from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def halve(n, x):
    x = jax.lax.fori_loop(0, n, lambda _, x: x / 2, x)
    return x


print(jax.vmap(halve, in_axes=(0, None))(jnp.array([0, 1, 2]), jnp.full(2, 8.0)))
