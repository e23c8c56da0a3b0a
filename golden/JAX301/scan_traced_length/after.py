# The seed's "dynamic length scan" (solution 1, with the body contract fixed):
# length=iters with iters traced. scan has no such thing.
import jax
import jax.numpy as jnp

init = jnp.ones((5,))
iterations = jnp.array([1, 2, 3])


@jax.jit
def iterate_for_steps(iters: int):
    def body_fun(_, carry):
        return carry * 2

    final_carry = jax.lax.fori_loop(0, iters, body_fun, init)
    return final_carry


print(jax.vmap(iterate_for_steps)(iterations))
