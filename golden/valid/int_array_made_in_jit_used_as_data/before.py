# jnp.array of an int literal inside jit used as data, next to a Python int axis: the array is
# traced, and that is fine where it is added, not used as an axis.
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    offset = jnp.array(1, dtype=jnp.int32)
    axis = 1
    return jnp.squeeze(x, axis) + offset


print(f(jnp.zeros((3, 1), dtype=jnp.int32)).tolist())
