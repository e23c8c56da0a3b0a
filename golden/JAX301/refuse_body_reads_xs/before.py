# The body reads its xs: a fori_loop body would have to index them.
import jax
import jax.numpy as jnp


@jax.jit
def accumulate(xs, n):
    def step(c, x):
        return c + x, None

    return jax.lax.scan(step, 0.0, xs, length=n.item())[0]


print(accumulate(jnp.arange(4.0), jnp.array(4)))
