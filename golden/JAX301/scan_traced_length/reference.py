# Hand fix: the masked scan of jax-behaviour 3d with a static bound of 8 steps.
import jax
import jax.numpy as jnp

init = jnp.ones((5,))
iterations = jnp.array([1, 2, 3])


def iterate_for_steps(iters):
    def step(c, i):
        return jnp.where(i < iters, c * 2, c), None

    return jax.lax.scan(step, init, jnp.arange(8))[0]


print(jax.vmap(iterate_for_steps)(iterations))
