# `from jax import lax`, `import functools`, and jit applied by assignment.
import functools

import jax
import jax.numpy as jnp
from jax import lax


def _grow(n, x):
    return jnp.concatenate([x] * n)


def _shrink(n, x):
    return jnp.zeros(n * x.shape[0])


grow = jax.jit(_grow, static_argnums=0)
shrink = jax.jit(_shrink, static_argnums=0)

REPEATS = 2


def apply(flag, x):
    return lax.cond(flag, grow, shrink, REPEATS + 1, x)


print(apply(True, jnp.array([1.0, 2.0])))
print(apply(False, jnp.array([1.0, 2.0])))
