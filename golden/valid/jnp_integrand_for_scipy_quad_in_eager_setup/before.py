# The same quadrature in a flax setup, but the model is initialised eagerly (no jit around
# init): jax.numpy computes concrete values there, and SciPy converts them to floats.
import numpy as np
import scipy.integrate
import jax
import jax.numpy as jnp
import flax.linen as nn
from flax.linen.initializers import variance_scaling


def second_moment(x, beta):
    return jnp.exp(-x ** 2 / 2) / jnp.sqrt(2 * jnp.pi) * jnp.tanh(beta * x) ** 2


class Model(nn.Module):
    depth: int = 1000

    def setup(self):
        self.variance, _ = scipy.integrate.quad(second_moment, -np.inf, np.inf, args=(1 / self.depth,))
        self.layer = nn.Dense(features=10, kernel_init=variance_scaling(1.0 / self.variance, "fan_in", "normal"))

    def __call__(self, x):
        return self.layer(x)


model = Model(depth=10)
variables = model.init(jax.random.PRNGKey(0), jnp.ones((4, 16)))
kernel = variables["params"]["layer"]["kernel"]
print(kernel.shape, round(float(jnp.std(kernel) * np.sqrt(16)), 2))
