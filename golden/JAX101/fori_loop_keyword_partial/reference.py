import jax.numpy as jnp


def run(x):
    N = 3
    for i in range(3):
        x = x * N + i
    return x


print(run(jnp.ones(4)))
