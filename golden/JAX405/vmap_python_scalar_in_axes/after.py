"""Scale each row by one Python float: vmap maps the float too, and a scalar has no axis."""
import jax
import jax.numpy as jnp


def scale_row(row, factor):
    return row * factor


rows = jnp.arange(6.0).reshape(3, 2)
print(jax.vmap(scale_row, in_axes=(0, None))(rows, 0.5))
