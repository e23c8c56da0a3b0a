import jax.numpy as jnp
from jax import jit

print(jnp.sum(jnp.arange(4), 0))
print(jit(jnp.sum)(jnp.arange(4), 0))
