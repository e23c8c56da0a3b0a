# The error reference's function written with tests Python can answer under jit: the rank and the
# length of the arrays (metadata, static), and a flag made static.
from functools import partial

import jax.numpy as jnp
from jax import jit


@partial(jit, static_argnames=("smaller",))
def func(x, y, smaller=True):
    if x.ndim > 1 or x.shape[0] != y.shape[0]:
        return y
    if smaller:
        return jnp.where(x.sum() < y.sum(), x, y)
    return x if len(x) > 3 else y


print(func(jnp.ones(4), jnp.zeros(4)))
print(func(jnp.ones(4), jnp.zeros(4), smaller=False))
