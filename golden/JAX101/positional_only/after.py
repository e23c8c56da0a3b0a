# Positional-only parameters, and the copied keyword-partial answer that puts x in N's slot (1d, 1k L6).
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0,))
def stack(N, x, /):
    return jnp.stack([x] * N)


@partial(jax.jit, static_argnums=(0,))
def empty(N, x, /):
    return jnp.zeros((N,) + x.shape)


N = 2
x = jnp.array([1.0, 2.0])
print(jax.lax.cond(True, partial(stack, N), partial(empty, N), x))
print(jax.lax.cond(False, partial(stack, N), partial(empty, N), x))
