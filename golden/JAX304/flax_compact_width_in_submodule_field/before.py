import jax
import jax.numpy as jnp
import flax.linen as nn


class Head(nn.Module):
    out_features: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(features=self.out_features)(x)


class Model(nn.Module):
    image_shape: tuple

    @nn.compact
    def __call__(self, images):
        n = jnp.prod(jnp.asarray(self.image_shape))
        flat = images.reshape((images.shape[0], -1))
        return Head(n)(flat)


model = Model(image_shape=(3, 5))
images = jnp.linspace(0.0, 1.0, 30).reshape((2, 3, 5))
params = jax.jit(model.init)(jax.random.PRNGKey(0), images)
out = jax.jit(model.apply)(params, images)
print(out.shape, round(float(out.sum()), 4))
