# pmap with the static argument unmapped (in_axes None) still traces it.
import jax
import jax.numpy as jnp


def scale(x, power):
    return x**power


scale_jit = jax.jit(scale, static_argnums=1)
rows = jnp.arange(4.0).reshape(1, 4)  # one CPU device: a leading axis of 1
print(jax.pmap(scale_jit, in_axes=(0, None), static_broadcasted_argnums=(1,))(rows, 3))
