# With --unsafe-fixes: the array goes to a function of another module, which we cannot see into.
from functools import partial
from operator import neg

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def shifted(x, offset):
    return x + neg(offset)


print(shifted(jnp.arange(3.0), jnp.array([1.0, 1.0, 1.0])))
