# A window length threaded through a scan carry reaches jnp.zeros inside the body as a tracer.
from functools import partial

import jax
import jax.numpy as jnp


def smooth_step(state, x):
    total, window = state
    padded = jnp.concatenate([jnp.zeros(window), x])
    total = total + padded[: x.shape[0]].sum()
    return (total, window), total


@partial(jax.jit, static_argnames="window")
def running_totals(xs, window):
    state = (jnp.float32(0.0), window)
    (final, _), totals = jax.lax.scan(smooth_step, state, xs)
    return final, totals


xs = jnp.arange(12.0).reshape(3, 4)
final, totals = running_totals(xs, window=2)
print(final, totals)
