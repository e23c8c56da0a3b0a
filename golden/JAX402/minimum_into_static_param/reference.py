# Hand fix: the means, by hand.
import jax.numpy as jnp

print(jnp.array([3.0, 5.0, 7.0]).mean())
print(jnp.array([2.0, 4.0]).mean())
