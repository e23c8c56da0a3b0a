# A Python loop over range(n.item()) inside jit: one line, one carried variable.
import jax
import jax.numpy as jnp


@jax.jit
def power(x, n):
    for _ in range(n.item()):
        x = x * x
    return x


print(power(jnp.array([1.5, 0.5]), jnp.array(2)))
