# Estimating the variance of a weight initializer with scipy's adaptive
# quadrature inside Module.setup, with the init jitted as in common pipelines.
import numpy as np
import scipy as sp
import scipy.integrate
import jax
import jax.numpy as jnp
import flax.linen as nn
from flax.linen.initializers import variance_scaling


def fn(x, beta):
    # second moment of tanh(beta * x) under a standard normal
    return jnp.exp(-x ** 2 / 2) / jnp.sqrt(2 * jnp.pi) * jnp.tanh(beta * x) ** 2


class Model(nn.Module):

    depth: int = 1000

    def setup(self):
        self.variance, _ = sp.integrate.quad(fn, -np.inf, +np.inf, args=(1 / self.depth,))

        def kernel_init(*args):
            return variance_scaling(1.0 / self.variance, 'fan_in', 'normal')(*args)

        self.layer = nn.Dense(features=10, kernel_init=kernel_init)

    def __call__(self, x):
        return self.layer(x)


model = Model(depth=10)
key = jax.random.PRNGKey(0)
batch = jnp.ones((4, 16))
out, variables = jax.jit(model.init_with_output)(key, batch)
kernel = variables['params']['layer']['kernel']
print(out.shape, kernel.shape)
print(round(float(jnp.std(kernel) * np.sqrt(16)), 2))
