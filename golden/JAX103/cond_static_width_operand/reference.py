import jax.numpy as jnp

x = jnp.arange(3.0)
print(jnp.zeros((4,)).at[:3].set(x))
print(jnp.ones((4,)) * x.sum())
