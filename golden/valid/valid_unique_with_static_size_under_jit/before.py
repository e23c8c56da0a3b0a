# Looks like numpyro#853 (a parameter sized by jnp.unique under jit), but the number of
# levels is given as `size=`, a static bound, so the traced unique has a known shape.
import numpy as np
import jax
import jax.numpy as jnp
from jax import random

volume = np.array([0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1])
N_VOLUME = 2


def model(key, volume):
    levels = jnp.unique(volume, size=N_VOLUME, fill_value=0)
    s = 0.5 * random.normal(key, (levels.size,))
    return s[volume]


out = jax.jit(model)(random.PRNGKey(0), volume)
print(out.shape, round(float(out.sum()), 3))
