# A while loop under jit that prints each round: as lax.while_loop the print would run once, while
# tracing, so the loop is reported with the reason.
import jax
import jax.numpy as jnp


@jax.jit
def noisy(x):
    while x > 1.0:
        print("halving")
        x = x * 0.5
    return x


print(float(noisy(jnp.float32(4.0))))
