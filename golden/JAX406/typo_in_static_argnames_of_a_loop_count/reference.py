# The static name is one letter off the parameter it means (`n_step` for `n_steps`).
# JAX406 alone would report it (which was meant is a person's choice); the loop count
# needs `n_steps` static, which JAX301 proves from the call, and then `n_step` goes.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("n_steps",))
def run(x, n_steps):
    for _ in range(n_steps):
        x = jnp.sin(x)
    return x


print(round(float(run(1.0, 3)), 4))
