# range(n) with n traced by vmap; the body carries two variables and has comments,
# so it is kept verbatim inside a def.
import jax
import jax.numpy as jnp


def fib(n):
    a = jnp.float32(0.0)
    b = jnp.float32(1.0)
    def loop_body(_, carry):  # one step of the recurrence
        a, b = carry
        # shift the window
        a, b = b, a + b
        return a, b
    a, b = jax.lax.fori_loop(0, n, loop_body, (a, b))
    return a


print(jax.vmap(fib)(jnp.arange(8)))
