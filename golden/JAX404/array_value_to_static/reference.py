# An array value (x.sum()) handed to a static parameter; nothing in the helper needs it concrete.
from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def shift(x, offset):
    return x + offset


@jax.jit
def centre(x):
    return shift(x, offset=-x.mean())


print(centre(jnp.array([1.0, 2.0, 6.0])))
