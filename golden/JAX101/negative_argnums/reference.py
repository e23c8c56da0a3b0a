import jax.numpy as jnp

x = jnp.ones(3)
print(jnp.zeros(5).at[:3].set(x))
print(jnp.full(4, x.sum()))
