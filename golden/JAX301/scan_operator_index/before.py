# length=operator.index(n) under jit, with an inline lambda body.
import operator

import jax
import jax.numpy as jnp


@jax.jit
def count_up(n):
    total, _ = jax.lax.scan(lambda c, x: (c + 1, None), jnp.int32(0), None, length=operator.index(n))
    return total


print(count_up(jnp.array(4)))
print(jax.vmap(count_up)(jnp.array([0, 2, 5])))
