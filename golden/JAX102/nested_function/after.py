# The cond sits in a helper nested inside the jitted function; N comes from the outer parameters.
from functools import partial

import jax
import jax.numpy as jnp


def repeat_rows(N, x):
    return jnp.tile(x, (N, 1))


def zero_rows(N, x):
    return jnp.zeros((N, x.shape[0]))


@partial(jax.jit, static_argnames=("N",))
def build(N, x, flag):
    def choose(v):
        return jax.lax.cond(flag, partial(repeat_rows, N), partial(zero_rows, N), v)

    return choose(x) + 1.0


print(build(2, jnp.array([1.0, 2.0]), True))
print(build(3, jnp.array([1.0, 2.0]), False))
