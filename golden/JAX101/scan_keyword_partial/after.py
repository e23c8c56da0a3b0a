# scan with the keyword partial: the carry lands in N's slot (1h).
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["N"])
def body(N, carry, x):
    return carry * N, carry.sum()


N = 2
final, sums = jax.lax.scan(partial(body, N), jnp.ones(3), None, length=3)
print(final)
print(sums)
