# length=int(n) under vmap alone (no jit), with `from jax import lax, vmap`.
from jax import lax, vmap
import jax.numpy as jnp


def decay(n):
    def step(_, c):
        return c * 0.5

    return lax.fori_loop(0, n, step, jnp.full((2,), 8.0))


print(vmap(decay)(jnp.array([0, 1, 3])))
