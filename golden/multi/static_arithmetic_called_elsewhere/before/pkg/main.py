import jax.numpy as jnp

from pkg.model import head

x = jnp.arange(5.0)
print(head(x, 3))
print(head(x, 9))
