# jax-ml/jax#4449: jnp.add on a shape value, used as a shape.
import jax
import jax.numpy as jnp


@jax.jit
def custom_ones(arr):
    count = jnp.add(arr.size, 1)
    return jnp.ones((count,))


a = jnp.ones((3,))
print(custom_ones(a))
