# Hand fix: the running mean written out.
import jax.numpy as jnp

x = jnp.arange(6.0)
print((x[1:] + x[:-1]) / 2)
