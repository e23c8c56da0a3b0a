# The optional momentum is static on the jit, so `momentum or self.momentum` reads a Python
# float (or None) and works; the jit compiles once per momentum value.
from functools import partial
from typing import Optional

import jax
import jax.numpy as jnp


class Momentum:
    def __init__(self, momentum: float = 0.9):
        self.momentum = momentum

    @partial(jax.jit, static_argnums=(0, 3))
    def step(self, grad, velocity, momentum: Optional[float] = None):
        momentum = momentum or self.momentum
        return momentum * velocity + grad


opt = Momentum()
v = jnp.zeros(2)
for override in (None, 0.5, 0.0):
    v = opt.step(jnp.array([1.0, -1.0]), v, override)
    print(v.tolist())
