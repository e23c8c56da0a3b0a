import math

import jax
import jax.numpy as jnp
import flax.linen as nn


class Decoder(nn.Module):
    widths: tuple
    bias: float

    @nn.compact
    def __call__(self, z):
        for width in self.widths:
            z = nn.relu(nn.Dense(width)(z))
        return z + self.bias


class Model(nn.Module):
    image_shape: tuple

    def setup(self):
        pixels = math.prod(self.image_shape)
        mean_intensity = jnp.mean(jnp.array(self.image_shape)) / pixels
        self.decoder = Decoder((8, pixels), mean_intensity)

    def __call__(self, codes):
        return self.decoder(codes)


model = Model(image_shape=(3, 5))
codes = jnp.ones((2, 4))
params = jax.jit(model.init)(jax.random.PRNGKey(0), codes)
out = jax.jit(model.apply)(params, codes)
print(out.shape, round(float(out.sum()), 4))
