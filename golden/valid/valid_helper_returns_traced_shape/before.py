import jax
import jax.numpy as jnp
import numpy as np


def b(z):
    return z.shape


def a(x, z):
    return jnp.reshape(x, b(z))


x = np.zeros(6)
z = np.zeros((2, 3))
jax_res = jax.jit(a)(x, z)
print(jax_res)

# the other case from the comment: a constant shape kept as a NumPy array
# (not converted to a device array) and closed over by the jitted function
shape = np.array([10])


def jax_funcified(prng_key):
    return jax.random.normal(prng_key, shape)


key = jax.random.PRNGKey(0)
print(jax.jit(jax_funcified)(key).shape)
