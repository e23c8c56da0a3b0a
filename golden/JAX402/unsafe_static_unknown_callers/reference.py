# Hand fix: the first two values.
import jax.numpy as jnp

print(jnp.arange(4.0)[:2])
