# vmap maps the value that reaches a static parameter: it differs per element, so it cannot be static.
from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def power(x, p):
    return x**p


def per_row(row, p):
    return power(row, p)


rows = jnp.arange(6.0).reshape(3, 2)
print(jax.vmap(per_row)(rows, jnp.array([1, 2, 3])))
