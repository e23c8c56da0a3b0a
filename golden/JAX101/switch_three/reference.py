from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["N"])
def ones(N, x):
    return jnp.ones((N,)) * x


@partial(jax.jit, static_argnames=["N"])
def twos(N, x):
    return jnp.full((N,), 2.0) * x


@partial(jax.jit, static_argnames=["N"])
def ramp(N, x):
    return jnp.arange(N) * x


def pick(i, x):
    N = 4
    return [ones, twos, ramp][i](N, x)


for i in range(3):
    print(pick(i, 1.5))
