import numpy as np
import jax
import jax.numpy as jnp
from jax import random
import flax.linen as nn


def hadamard(key, shape, dtype=jnp.float32):
    with jax.ensure_compile_time_eval():
        lg2 = jnp.log2(shape[0])
    H = jnp.ones((1, ), dtype=dtype)
    for i in jnp.arange(lg2):
        H = jnp.vstack([jnp.hstack([H, H]), jnp.hstack([H, -H])])
    H = 2**(-lg2 / 2) * H
    return H


class HadamardTransform(nn.Module):
    n_hadamard: int

    @nn.compact
    def __call__(self, X):
        kernel = self.param("kernel", hadamard, (self.n_hadamard, ))
        z = jnp.dot(X, kernel)
        return z


# fake test data
key = random.PRNGKey(42)
X = random.normal(key, (1, 16))

# Instantiating model
model = HadamardTransform(16)
params = model.init(key, X)
z = model.apply(params, X)
print(np.round(np.asarray(z), 4))
