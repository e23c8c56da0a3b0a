# The enclosing function is jitted by assignment at module level.
import jax
import jax.numpy as jnp
from functools import partial


def top(k, x):
    return jnp.sort(x)[-k:]


def bottom(k, x):
    return jnp.sort(x)[:k]


def _extremes(k, x, want_top):
    return jax.lax.cond(want_top, partial(top, k), partial(bottom, k), x)


extremes = jax.jit(_extremes, static_argnames=("k",))

x = jnp.array([5.0, 1.0, 4.0, 2.0, 3.0])
print(extremes(2, x, True))
print(extremes(3, x, False))
