# A NumPy weight array listed in static_argnames beside a real static string: only `weights` leaves.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames=("weights", "mode"))
def combine(x, weights, mode):
    if mode == "sum":
        return (x * weights).sum()
    return (x * weights).max()


w = np.array([0.5, 1.0, 2.0])
print(combine(jnp.arange(3.0), w, "sum"))
print(combine(jnp.arange(3.0), weights=w, mode="max"))
