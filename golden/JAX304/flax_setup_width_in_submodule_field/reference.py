import math

import jax
import jax.numpy as jnp
import flax.linen as nn


class MLP(nn.Module):
    widths: tuple

    @nn.compact
    def __call__(self, x):
        for width in self.widths[:-1]:
            x = nn.relu(nn.Dense(width)(x))
        return nn.Dense(self.widths[-1])(x)


class AutoEncoder(nn.Module):
    hidden: tuple
    image_shape: tuple

    def setup(self):
        pixels = math.prod(self.image_shape)
        self.encoder = MLP(self.hidden)
        self.decoder = MLP(self.hidden[::-1] + (pixels,))

    def __call__(self, images):
        codes = self.encoder(images.reshape((images.shape[0], -1)))
        return nn.sigmoid(self.decoder(codes)).reshape(images.shape)


model = AutoEncoder(hidden=(16, 4), image_shape=(3, 5))
images = jnp.linspace(0.0, 1.0, 30).reshape((2, 3, 5))
params = jax.jit(model.init)(jax.random.PRNGKey(0), images)
out = jax.jit(model.apply)(params, images)
print(out.shape, round(float(out.sum()), 4))
