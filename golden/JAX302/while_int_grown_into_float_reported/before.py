# A while loop under jit whose counter starts as a Python int and grows by 0.5: lax.while_loop
# cannot carry an int that becomes a float, so the loop is reported with the reason.
import jax
import jax.numpy as jnp


@jax.jit
def count_until(x):
    i = 0
    while x > i:
        i = i + 0.5
    return i


print(float(count_until(jnp.float32(2.2))))
