# Hand fix: the same power, computed without pmap.
import jax.numpy as jnp

rows = jnp.arange(4.0).reshape(1, 4)
print(rows**3)
