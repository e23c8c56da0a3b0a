import os

import jax.numpy as jnp

from pkg.model import doubled, scale

x = jnp.arange(3.0)
factor = os.environ.get("FACTOR", "fast")
print(scale(x, 3))
print(scale(x, factor) if factor != "fast" else doubled(x))
