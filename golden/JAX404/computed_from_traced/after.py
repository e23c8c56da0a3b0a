# A value computed from a traced parameter (n + 1) handed to a static parameter.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def pad(x, n):
    return jnp.concatenate([x, jnp.zeros(n)])


@partial(jax.jit, static_argnames=("n",))
def pad_one_more(x, n):
    return pad(x, n + 1)


print(pad_one_more(jnp.arange(3.0), 2))
