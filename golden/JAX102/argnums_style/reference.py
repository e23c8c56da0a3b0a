import jax.numpy as jnp


def resize(n, x, mode):
    if mode == "grow":
        return jnp.concatenate([x, jnp.zeros(n)])
    return jnp.concatenate([x[::-1], jnp.ones(n)])


print(resize(2, jnp.arange(3.0), "grow"))
print(resize(4, jnp.arange(3.0), "shrink"))
