# fori_loop with the copied keyword partial: the loop index lands in N's slot (1h).
from functools import partial

import jax
import jax.numpy as jnp
from jax import jit


@partial(jit, static_argnames=["N"])
def step(N, i, carry):
    return carry * N + i


def run(x):
    N = 3
    return jax.lax.fori_loop(0, 3, partial(step, N=N), x)


print(run(jnp.ones(4)))
