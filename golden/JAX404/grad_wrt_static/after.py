# grad differentiates with respect to the value that a jitted helper takes as static.
from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def scaled_norm(x, scale):
    return scale * jnp.sqrt((x**2).sum())


def loss(x, scale):
    return scaled_norm(x, scale)


print(jax.grad(loss, argnums=1)(jnp.array([3.0, 4.0]), 2.0))
