import jax.numpy as jnp

N = 3
print((jnp.ones((4, 5)).reshape((1, 4, 5)) * jnp.ones((N, 4, 5))).sum())
print(jnp.zeros((N, 4, 5)).sum())
