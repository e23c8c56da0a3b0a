import jax.numpy as jnp

x = jnp.array([1.0, 2.0])
print(jnp.repeat(x, 2))
