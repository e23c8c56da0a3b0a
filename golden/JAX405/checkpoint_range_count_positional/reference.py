import jax
import jax.numpy as jnp


def block3(h):
    for _ in range(3):
        h = jnp.tanh(h) + 1.0
    return h


print(jax.grad(lambda h: jax.checkpoint(block3)(h).sum())(jnp.zeros(2)))
