# length=int(n) under vmap alone (no jit), with `from jax import lax, vmap`.
from jax import lax, vmap
import jax.numpy as jnp


def decay(n):
    def step(c, _):
        return c * 0.5, c

    return lax.scan(step, jnp.full((2,), 8.0), length=int(n))[0]


print(vmap(decay)(jnp.array([0, 1, 3])))
