# Operands passed with *: which one lands in the static slot cannot be seen.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["N"])
def run_true(N, x):
    return jnp.ones((N,)) * x


@partial(jax.jit, static_argnames=["N"])
def run_false(N, x):
    return jnp.zeros((N,)) * x


operands = (3, 2.0)
print(jax.lax.cond(True, run_true, run_false, *operands))
