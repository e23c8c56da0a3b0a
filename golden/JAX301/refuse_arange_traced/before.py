# jnp.arange(n.item()) under vmap: an array's size cannot be traced.
import jax
import jax.numpy as jnp


def triangle(n):
    return jnp.arange(n.item()).sum()


print(jax.vmap(triangle)(jnp.array([3, 4])))
