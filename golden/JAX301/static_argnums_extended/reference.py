# Hand fix: row i is mode * i.
import jax.numpy as jnp

print(jnp.stack([jnp.full(2, 1.0 * i) for i in range(3)]))
print(jnp.stack([jnp.full(2, 2.0 * i) for i in range(4)]))
