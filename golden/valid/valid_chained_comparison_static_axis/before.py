# From flax's attention (flax/core/nn/attention.py): chained comparisons on a static axis and
# on array metadata inside jitted code. Every operand is a Python int when the chain runs
# (a static argument, `x.ndim`), so the `and` Python evaluates is fine: nothing to rewrite.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def normalize_along(x, ax):
    if not (x.ndim >= 3 and 1 <= ax < x.ndim - 1):
        raise ValueError("Attention axis must be between the batch axis and the last-two axes.")
    inside = 0 <= ax < x.ndim  # a Python bool, used as a value
    scale = jnp.where(inside, 1.0, 0.0)
    return scale * x / jnp.sum(x, axis=ax, keepdims=True)


x = jnp.arange(24.0).reshape(2, 3, 4) + 1.0
print(normalize_along(x, 1).sum(axis=1).round(4).tolist())
