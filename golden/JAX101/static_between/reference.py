from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("n",))
def add_rows(x, n, y):
    return jnp.broadcast_to(x + y, (n,) + x.shape)


@partial(jax.jit, static_argnames=("n",))
def sub_rows(x, n, y):
    return jnp.broadcast_to(x - y, (n,) + x.shape)


def run(pred):
    n = 2
    x = jnp.arange(3.0)
    y = jnp.ones(3)
    return add_rows(x, n, y) if pred else sub_rows(x, n, y)


print(run(True))
print(run(False))
