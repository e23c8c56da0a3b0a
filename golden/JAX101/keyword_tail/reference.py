from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def tile(x, reps):
    return jnp.tile(x, reps)


@partial(jax.jit, static_argnums=(1,))
def zeros_like_tiled(x, reps):
    return jnp.zeros((x.shape[0] * reps,))


def main():
    reps = 3
    x = jnp.array([1.0, 2.0])
    print(tile(x, reps) if x.sum() > 0 else zeros_like_tiled(x, reps))


main()
