# N is a parameter of the enclosing jit that is not static there: already a tracer (1i).
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["N"])
def run_true(N, x):
    return x.reshape((1, 4, 5)) * jnp.ones((N, 4, 5))


@partial(jax.jit, static_argnames=["N"])
def run_false(N, x):
    return jnp.zeros((N, 4, 5))


@jax.jit
def outer(N, x, a):
    return jax.lax.cond(a, run_true, run_false, N, x)


print(outer(jnp.int32(3), jnp.ones((4, 5)), True))
