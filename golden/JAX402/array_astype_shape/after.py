# jnp.array(n).astype(int) as a shape, with n static and every call passing an int.
from functools import partial

import jax
import jax.numpy as jnp

WIDTH = 3


@partial(jax.jit, static_argnums=1)
def padded(x, n):
    pad = jnp.zeros(n)
    return jnp.concatenate([x, pad])


print(padded(jnp.ones(2), WIDTH))
print(padded(jnp.ones(2), WIDTH - 2))
