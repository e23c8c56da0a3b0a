# Odd formatting and comments around the call must survive byte for byte.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit,
         static_argnames = [ "N" ])   # static N
def run_true(N, x):
    return x.reshape((1, 4, 5)) * jnp.ones((N, 4, 5))


@partial(jax.jit, static_argnames=["N"])
def run_false(N,x):   # no space after the comma
    return jnp.zeros((N, 4, 5))


def main():
    N = 3  # the number of copies
    x = jnp.ones((4, 5))
    answer = jax.lax.cond(
        True,        # always the true branch
        run_true,    # first branch
        run_false,   # second branch
        N,           # static: goes into the branches
        x,           # dynamic
    )
    print(answer.shape, float(answer.sum()))


main()
