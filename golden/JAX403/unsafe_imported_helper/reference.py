# Hand fix: subtract the offset.
import jax.numpy as jnp

print(jnp.arange(3.0) - 1.0)
