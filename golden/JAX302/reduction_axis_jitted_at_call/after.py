import jax.numpy as jnp
from jax import jit

print(jnp.sum(jnp.arange(4), 0))
print(jit(jnp.sum, static_argnums=1)(jnp.arange(4), 0))
