# Hand fix: the size computed before the call.
import jax.numpy as jnp

x = jnp.arange(10)
print(jnp.arange(min(x.shape[0], 5)))
