import jax.numpy as jnp
from jax import jit

print(jnp.sum(jnp.arange(4), 0))
# The reduction axis must be known at trace time: mark it static.
print(jit(jnp.sum, static_argnums=1)(jnp.arange(4), 0))
