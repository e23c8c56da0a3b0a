# The seed's "dynamic length scan" (solution 1, with the body contract fixed):
# length=iters with iters traced. scan has no such thing.
import jax
import jax.numpy as jnp

init = jnp.ones((5,))
iterations = jnp.array([1, 2, 3])


@jax.jit
def iterate_for_steps(iters: int):
    def body_fun(carry, _):
        return carry * 2, None

    final_carry, _ = jax.lax.scan(
        body_fun,
        init,
        xs=None,
        length=iters,
    )
    return final_carry


print(jax.vmap(iterate_for_steps)(iterations))
