# Hand fix: the three largest, summed and doubled.
import jax.numpy as jnp

print((jnp.float32(5.0) + 4.0 + 3.0) * 2)
