"""Hand fix: branches that close over the order, written at the call."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames="order")
def smooth(signal, order):
    for _ in range(order):
        signal = (signal + jnp.roll(signal, 1)) / 2
    return signal


@partial(jax.jit, static_argnums=1)
def sharpen(signal, strength):
    return signal * (1 + strength)


def apply_filter(kind, signal, order):
    return lax.switch(kind, [lambda s: smooth(s, order), lambda s: sharpen(s, order)], signal)


print(apply_filter(0, jnp.arange(4.0), 2))
print(apply_filter(1, jnp.arange(4.0), 2))
print(smooth(jnp.ones(2), 1))
