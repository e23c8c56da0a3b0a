import jax.numpy as jnp

x = jnp.array([1.0, 2.0])
print(jnp.tile(x, 3))
print(jnp.tile(x, 2))
print(jnp.pad(x, (0, 2)))
