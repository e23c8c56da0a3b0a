# Hand fix: the weighted sum and max, by hand.
import jax.numpy as jnp

weighted = jnp.array([0.0, 1.0, 4.0])
print(weighted.sum())
print(weighted.max())
