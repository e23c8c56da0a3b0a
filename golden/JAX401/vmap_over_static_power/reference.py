import jax.numpy as jnp

print(jnp.arange(3.0) ** 2)
