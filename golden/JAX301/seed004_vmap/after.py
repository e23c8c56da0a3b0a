# Seed 004 (3a, reconstructed): the count is static on the jit, made with
# .astype(int).item(), and the function is vmapped over the counts.
from functools import partial

import jax
import jax.numpy as jnp

init = jnp.ones((5,))
iterations = jnp.array([1, 2, 3])


@jax.jit
def iterate_for_steps(iters):
    def body_fun(_, carry):
        return carry * 2

    final_carry = jax.lax.fori_loop(0, iters.astype(int), body_fun, init)
    return final_carry


print(jax.vmap(iterate_for_steps)(iterations))
