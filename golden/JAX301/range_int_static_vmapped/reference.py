# Hand fix: 8 / 2 ** n for each n.
import jax.numpy as jnp

print(jnp.stack([jnp.full(2, 8.0) / 2 ** n for n in (0, 1, 2)]))
