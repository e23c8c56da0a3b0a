# range(n) with n traced by vmap; the body carries two variables and has comments,
# so it is kept verbatim inside a def.
import jax
import jax.numpy as jnp


def fib(n):
    a = jnp.float32(0.0)
    b = jnp.float32(1.0)
    for _ in range(n):  # one step of the recurrence
        # shift the window
        a, b = b, a + b
    return a


print(jax.vmap(fib)(jnp.arange(8)))
