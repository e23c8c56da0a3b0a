# A branch function is also called eagerly at module level: its own jit stays.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["n"])
def tile(n, x):
    return jnp.tile(x, n)


def pad(n, x):
    return jnp.pad(x, (0, (n - 1) * x.shape[0]))


@partial(jax.jit, static_argnames=("n",))
def choose(n, x, flag):
    return jax.lax.cond(flag, partial(tile, n), partial(pad, n), x)


x = jnp.array([1.0, 2.0])
print(tile(3, x))
print(choose(2, x, True))
print(choose(2, x, False))
