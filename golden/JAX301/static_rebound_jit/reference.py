import jax.numpy as jnp

print(jnp.array([[1.0], [2.0], [4.0]]))
