# The static parameter comes after the dynamic one: it is bound by keyword (1g).
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnums=(1,))
def tile(x, reps):
    return jnp.tile(x, reps)


@partial(jax.jit, static_argnums=(1,))
def zeros_like_tiled(x, reps):
    return jnp.zeros((x.shape[0] * reps,))


def main():
    reps = 3
    x = jnp.array([1.0, 2.0])
    print(lax.cond(x.sum() > 0, tile, zeros_like_tiled, x, reps))


main()
