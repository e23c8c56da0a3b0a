# An assigned jit, g = jax.jit(f); the loop count is range(int(n)).
import jax
import jax.numpy as jnp


def halve(x, n):
    for _ in range(n):
        x = x / 2
    return x


fast_halve = jax.jit(halve, static_argnames=("n",))
print(fast_halve(jnp.ones(2), 3))
