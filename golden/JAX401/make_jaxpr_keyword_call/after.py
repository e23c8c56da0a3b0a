# The static value is passed by keyword; make_jaxpr's static_argnums covers it too (measured).
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("reps",))
def tile_rows(x, reps):
    return jnp.tile(x, (reps, 1))


x = jnp.arange(3.0)
jaxpr = jax.make_jaxpr(tile_rows, static_argnums=(1,))(x, reps=4)
print(jaxpr.out_avals)
