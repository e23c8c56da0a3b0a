# Hand fix: counting up to n is n itself.
import jax.numpy as jnp

print(jnp.int32(4))
print(jnp.array([0, 2, 5], dtype=jnp.int32))
