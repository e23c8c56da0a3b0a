from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def head(x, n):
    k = jnp.minimum(x.shape[0], n)
    return x[:k] * jnp.arange(k)
