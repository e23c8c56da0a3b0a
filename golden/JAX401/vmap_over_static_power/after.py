"""vmap over a function jitted with a static power: vmap maps the Python int 2 too."""
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def power(x, p):
    return x ** p


xs = jnp.arange(3.0)
print(jax.vmap(power, in_axes=(0, None))(xs, 2))
