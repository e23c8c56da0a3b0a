import jax.numpy as jnp


def band(use_upper, m):
    return jnp.triu(m, 1) if use_upper else jnp.tril(m, 1)


m = jnp.arange(9.0).reshape(3, 3)
print(band(True, m))
print(band(False, m))
