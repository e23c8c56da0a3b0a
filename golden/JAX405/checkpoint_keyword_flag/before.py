# Cut down from jax-ml/jax#7426 (checkpoint composed with jit on a function
# with a concrete bool parameter passed by keyword).
from typing import Optional
from functools import partial

import jax
from jax import numpy as jnp


def bool_fn(x, flag: Optional[bool]=None):
    if flag:
        return x
    return x - 1


x = jnp.ones((4,), jnp.float32)
print(jax.jit(lambda x: bool_fn(x, flag=False))(x))  # succeeds
print(jax.jit(lambda x: jax.checkpoint(bool_fn)(x, flag=False))(x))  # fails
