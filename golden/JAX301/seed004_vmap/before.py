# Seed 004 (3a, reconstructed): the count is static on the jit, made with
# .astype(int).item(), and the function is vmapped over the counts.
from functools import partial

import jax
import jax.numpy as jnp

init = jnp.ones((5,))
iterations = jnp.array([1, 2, 3])


@partial(jax.jit, static_argnums=(0,))
def iterate_for_steps(iters):
    def body_fun(carry, _):
        return carry * 2, None

    final_carry, _ = jax.lax.scan(body_fun, init, xs=None, length=iters.astype(int).item())
    return final_carry


print(jax.vmap(iterate_for_steps)(iterations))
