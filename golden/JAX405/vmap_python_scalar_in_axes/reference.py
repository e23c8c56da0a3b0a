import jax.numpy as jnp

rows = jnp.arange(6.0).reshape(3, 2)
print(rows * 0.5)
