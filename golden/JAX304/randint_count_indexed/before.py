import jax
import jax.numpy as jnp

key = jax.random.PRNGKey(0)


@jax.jit
def do_stuff(start):
    # decide the number of iterations with JAX's random number generator
    num_iters = jax.random.randint(key, (1,), 1, 10)
    x = start
    for i in range(num_iters[0]):
        x = x * 2 + i
    return x


print(do_stuff(0))
