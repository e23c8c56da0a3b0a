# Valid look-alike from jax-ml/jax#3696 (froystig's answer): the jitted
# one_hot's static class count is unmapped with in_axes=None, so vmap passes
# the Python int through untouched.
from jax import nn, vmap, jit
import jax.numpy as jnp

one_hot = jit(nn.one_hot, static_argnums=(1,))
print(vmap(one_hot, in_axes=(0, None))(jnp.array([2, 3, 4]), 5))
