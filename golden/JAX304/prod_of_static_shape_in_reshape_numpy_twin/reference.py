import math

import jax
import jax.numpy as jnp


class Flatten:
    """Flattens every axis but the batch axis, as a Dense layer wants its input."""

    def __call__(self, x):
        return x.reshape((x.shape[0], math.prod(x.shape[1:])))


@jax.jit
def features(images, weights):
    flat = Flatten()(images)
    return flat @ weights


images = jnp.arange(2 * 3 * 4, dtype=jnp.float32).reshape(2, 3, 4) / 10
weights = jnp.linspace(-1.0, 1.0, 12 * 2).reshape(12, 2)
print([round(v, 4) for v in features(images, weights).ravel().tolist()])
