# jax-ml/jax#6233: a DeviceArray passed as a static argument that jnp.arange needs concrete.
import jax.numpy as jnp
from jax import jit


def f(x):
    return jnp.arange(-x, x)


f_jit = jit(f, static_argnums=0)

x_int = int(5)
print(f_jit(x_int))
x_device_array = jnp.add(4, 1)
print(f_jit(x_device_array))
