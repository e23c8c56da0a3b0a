import jax.numpy as jnp

x = jnp.arange(5.0)
print(x[:3] * jnp.arange(3))
print(x[:5] * jnp.arange(5))
