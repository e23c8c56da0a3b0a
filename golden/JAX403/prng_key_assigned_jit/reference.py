# Hand fix: scale 0.0 leaves the parameters as they are.
import jax.numpy as jnp

print(jnp.zeros(3))
