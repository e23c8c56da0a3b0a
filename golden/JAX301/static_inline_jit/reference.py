import jax.numpy as jnp

print(jnp.array([0.0, 0.5, 1.0, 1.5]))
