# jax-ml/jax#5208 with int operands: jnp.maximum(jnp.abs(n), 1) as linspace's num.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("steps",))
def grid(t0, steps):
    num = max(abs(steps), 1) + 1
    return jnp.linspace(t0, t0 + 1.0, num)


print(grid(0.0, -4))
print(grid(1.0, steps=0))
