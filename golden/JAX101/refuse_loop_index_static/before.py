# The loop index itself lands in a static parameter: no binding can help (rule 7 of jax-behaviour).
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0,))
def body(i, carry):
    return carry * 2.0 + i


print(jax.lax.fori_loop(0, 3, body, jnp.ones(2)))
