"""A lax.switch over a module-level table of jitted branches, inside a loop whose variable is the static operand."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames="k")
def poly(x, k):
    return x**k


@partial(jax.jit, static_argnames="k")
def offset(x, k):
    return x + k


TABLE = (poly, offset)


@jax.jit
def run(x, which):
    rows = []
    for k in (2, 3):
        rows.append(lax.switch(which, TABLE, x, k))
    return jnp.stack(rows)


print(run(jnp.arange(3.0), 1))
