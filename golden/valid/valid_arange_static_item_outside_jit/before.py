# The working calls of jax-ml/jax#6233: x is static because jnp.arange needs it;
# callers pass a Python int, or convert a concrete jax scalar with .item()
# outside of any transform before the call.
import jax.numpy as jnp
from jax import jit


def f(x):
    return jnp.arange(-x, x)


f_jit = jit(f, static_argnums=0)

x_int = int(5)
print(f_jit(x_int))

x_device_array = jnp.add(2, 1)
print(f_jit(x_device_array.item()))
print(f_jit(int(x_device_array) + 1))
