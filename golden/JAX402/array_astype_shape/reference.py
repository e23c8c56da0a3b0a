# Hand fix: the padded arrays, concatenated eagerly.
import jax.numpy as jnp

print(jnp.concatenate([jnp.ones(2), jnp.zeros(3)]))
print(jnp.concatenate([jnp.ones(2), jnp.zeros(1)]))
