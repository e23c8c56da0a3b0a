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
print(stack(N, x))
print(empty(N, x))
