# The static operand comes from a config attribute: static, but not provably an int, so the fix is unsafe.
from functools import partial
from types import SimpleNamespace

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def window(x, size):
    return x[: max(size, 1)]


config = SimpleNamespace(size=2)
print(window(jnp.arange(4.0), config.size))
