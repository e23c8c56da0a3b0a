import jax
import jax.numpy as jnp

key = jax.random.PRNGKey(0)


@jax.jit
def do_stuff(start):
    # decide the number of iterations with JAX's random number generator
    num_iters = jax.random.randint(key, (1,), 1, 10)
    x = start
    x = jax.lax.fori_loop(0, num_iters[0], lambda i, x: x * 2 + i, x)
    return x


print(do_stuff(0))
