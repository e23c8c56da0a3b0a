# A Python loop over range(n.item()) inside jit: one line, one carried variable.
import jax
import jax.numpy as jnp


@jax.jit
def power(x, n):
    x = jax.lax.fori_loop(0, n, lambda _, x: x * x, x)
    return x


print(power(jnp.array([1.5, 0.5]), jnp.array(2)))
