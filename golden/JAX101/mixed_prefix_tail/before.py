# Statics before and after the dynamic operand: positional prefix plus keyword tail (1k, L2).
import functools

import jax
import jax.numpy as jnp

N, M = 3, 2


@functools.partial(jax.jit, static_argnames=("N", "M"))
def scale_up(N, x, M):
    return jnp.broadcast_to(x, (N,) + x.shape) * M


@functools.partial(jax.jit, static_argnames=("N", "M"))
def scale_down(N, x, M):
    return jnp.broadcast_to(x, (N,) + x.shape) / M


x = jnp.ones((2, 2))
for flag in (True, False):
    print(jax.lax.cond(flag, scale_up, scale_down, N, x, M))
