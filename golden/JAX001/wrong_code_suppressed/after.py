# The comment meant to silence this call's finding but names the wrong rule (and one that does not exist):
# it hides nothing, the call still fails, and jaxfix says so (JAX001) as it fixes the call (JAX101).
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["N"])
def run_true(N, x):
    return jnp.ones((N,)) * x


@partial(jax.jit, static_argnames=["N"])
def run_false(N, x):
    return jnp.zeros((N,)) * x


def main():
    y = jax.lax.cond(True, partial(run_true, 3), partial(run_false, 3), 2.0)
    print(y.shape, float(y.sum()))  # noqa: E501


main()
