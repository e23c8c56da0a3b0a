# n is static on the jit and vmapped; it is also a shape, so it cannot simply
# stop being static.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=0)
def pad_and_grow(n):
    c, _ = jax.lax.scan(lambda c, _: (c * 2, None), jnp.ones(2), None, length=n)
    return jnp.concatenate([c, jnp.zeros(n)])


print(jax.vmap(pad_and_grow)(jnp.array([1, 2])))
