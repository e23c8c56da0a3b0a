# The branches are already bound with partial, but N is traced in the enclosing jit (1i, first row).
from functools import partial

import jax
import jax.numpy as jnp


def run_true(N, x):
    return x.reshape((1, 4, 5)) * jnp.ones((N, 4, 5))


def run_false(N, x):
    return jnp.zeros((N, 4, 5))


@partial(jax.jit, static_argnames=("N",))
def outer_dec(N, x, a):
    return jax.lax.cond(a, partial(run_true, N), partial(run_false, N), x)


print(outer_dec(3, jnp.ones((4, 5)), True).sum())
print(outer_dec(3, jnp.ones((4, 5)), False).sum())
