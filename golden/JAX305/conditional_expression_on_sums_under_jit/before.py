# The example of JAX's error reference for TracerBoolConversionError: a conditional expression
# on what x and y sum to, inside a jitted function given arrays.
import jax.numpy as jnp
from jax import jit


@jit
def func(x, y):
    return x if x.sum() < y.sum() else y


print(func(jnp.ones(4), jnp.zeros(4)))
print(func(jnp.zeros(3), jnp.ones(3)))
