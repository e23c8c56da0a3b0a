# Zero out the entries of a state vector that belong to a fixed "problem" set.
# The mask is known ahead of time, so it was marked static to let jit bake it in.
from functools import partial

import numpy as np
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def fn(x, problem):
    # static arguments must be hashable: receive a tuple and rebuild the mask
    return x.at[np.asarray(problem)].set(0.0)


problem = (True, False, True, False)
x = jnp.arange(1.0, 5.0)
print(fn(x, problem))
print(fn(2 * x, problem))
