# Hand fix: with rate 0.0 every entry is kept.
import jax.numpy as jnp

print(jnp.ones(4))
