import jax
import jax.numpy as jnp
import flax.linen as nn


class ScaledHead(nn.Module):
    # (scale, width): the scale only multiplies data, the width sizes the layer
    spec: tuple

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.spec[1])(x * self.spec[0])


class Model(nn.Module):
    image_shape: tuple

    def setup(self):
        inverse_pixels = 1.0 / jnp.prod(jnp.array(self.image_shape))
        self.head = ScaledHead((inverse_pixels, 4))

    def __call__(self, images):
        return self.head(images.reshape((images.shape[0], -1)))


model = Model(image_shape=(3, 5))
images = jnp.linspace(0.0, 1.0, 30).reshape((2, 3, 5))
params = jax.jit(model.init)(jax.random.PRNGKey(0), images)
out = jax.jit(model.apply)(params, images)
print(out.shape, round(float(out.sum()), 4))
