# Refused: the static parameter is keyword-only, and make_jaxpr has only static_argnums.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("n",))
def repeat(x, *, n):
    return jnp.tile(x, n)


print(jax.make_jaxpr(repeat)(jnp.ones(2), n=3))
