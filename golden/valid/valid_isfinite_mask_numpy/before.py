# The resolution of jax-ml/jax#4471: the mask built from the static tuple y with
# numpy stays concrete under jit, so boolean indexing works; a jnp mask over the
# traced x is used only in the 3-argument jnp.where.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnums=(1,))
def create_mask_inside_jitted_function(x, y):
    mask = np.isfinite(np.array(y))
    finite_x = jnp.where(jnp.isfinite(x), x, 0)
    return finite_x[mask].sum()


x = jnp.array([0.0, 1.0, jnp.inf, 3.0, 4.0])
y = (1.0, np.inf, 2.0, np.nan, 3.0)
print(create_mask_inside_jitted_function(x, y))
print(create_mask_inside_jitted_function(x, y))
