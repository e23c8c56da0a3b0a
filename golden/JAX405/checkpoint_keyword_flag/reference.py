# Hand fix of jax-ml/jax#7426: the reporter's own workaround, the static flag
# bound with partial before checkpoint sees the function.
from typing import Optional
from functools import partial

import jax
from jax import numpy as jnp


def bool_fn(x, flag: Optional[bool]=None):
    if flag:
        return x
    return x - 1


x = jnp.ones((4,), jnp.float32)
print(jax.jit(lambda x: bool_fn(x, flag=False))(x))
print(jax.jit(jax.checkpoint(partial(bool_fn, flag=False)))(x))
