# A set of flags as a static argument: membership tests only.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["flags"])
def transform(x, flags):
    if "square" in flags:
        x = x * x
    if "negate" in flags:
        x = -x
    return x + len(flags)


print([float(v) for v in transform(jnp.array([1.0, 2.0]), flags=frozenset({"square", "negate"}))])
