# Hand fix: the whole thing as plain Python over static N.
import jax.numpy as jnp


def outer(N, x, a):
    if a:
        return x.reshape((1, 4, 5)) * jnp.ones((N, 4, 5))
    return jnp.zeros((N, 4, 5))


x = jnp.arange(20.0).reshape(4, 5)
print(outer(3, x, True).sum(axis=(1, 2)))
print(outer(2, x, False).shape)
