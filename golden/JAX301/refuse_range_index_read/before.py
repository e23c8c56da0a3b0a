# The Python loop reads its index: not provably a fori_loop, so only reported.
import jax
import jax.numpy as jnp


@jax.jit
def ramp_up(x, n):
    for i in range(n.item()):
        x = x + i
    return x


print(ramp_up(jnp.zeros(2), jnp.array(3)))
