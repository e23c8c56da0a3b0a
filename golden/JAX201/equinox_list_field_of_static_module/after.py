import equinox as eqx
import jax
import jax.numpy as jnp


class Pooling(eqx.Module):
    window: tuple = eqx.field(static=True)

    def __init__(self, height, width):
        self.window = (height, width)

    def apply(self, image):
        rows = image.shape[0] // self.window[0]
        cols = image.shape[1] // self.window[1]
        blocks = image[: rows * self.window[0], : cols * self.window[1]]
        return blocks.reshape(rows, self.window[0], cols, len(self.window) * self.window[1] // 2).mean(axis=(1, 3))


def pool(image, layer):
    return layer.apply(image)


pool_jit = jax.jit(pool, static_argnums=1)
image = jnp.arange(36.0).reshape(6, 6)
print(pool_jit(image, Pooling(2, 3)).tolist())
