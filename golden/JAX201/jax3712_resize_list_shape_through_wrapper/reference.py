from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1, 2))
def _resize(image, shape, method):
    return jax.image.resize(image, shape, method)


def resize(image, shape, method="bilinear"):
    """Resize `image` to `shape` (any sequence of ints)."""
    # Static arguments must be hashable: normalise the shape to a tuple.
    return _resize(image, tuple(shape), method)


def preprocess(batch, target_hw):
    n, h, w, c = batch.shape
    out_shape = [n, *target_hw, c]
    return resize(batch, out_shape) / 255.0


batch = jnp.arange(2 * 4 * 4 * 3, dtype=jnp.float32).reshape(2, 4, 4, 3)
small = preprocess(batch, (2, 2))
print(small.shape)
print([round(float(v), 4) for v in small[0, :, :, 0].ravel()])
