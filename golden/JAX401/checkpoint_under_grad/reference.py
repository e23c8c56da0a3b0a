# Hand fix: no checkpoint, the width closed over.
import jax
import jax.numpy as jnp


def loss(w):
    return jnp.tanh(jnp.tile(w, 3)).sum() * 2.0


print(jax.grad(loss)(jnp.array([0.5, -0.25])))
