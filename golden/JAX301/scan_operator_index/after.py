# length=operator.index(n) under jit, with an inline lambda body.
import operator

import jax
import jax.numpy as jnp


@jax.jit
def count_up(n):
    total = jax.lax.fori_loop(0, n, lambda x, c: c + 1, jnp.int32(0))
    return total


print(count_up(jnp.array(4)))
print(jax.vmap(count_up)(jnp.array([0, 2, 5])))
