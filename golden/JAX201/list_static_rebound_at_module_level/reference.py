# jax#4712: a list of layer indices is a static argument. The script binds the
# name again for a second experiment; each binding is a list, which jit cannot
# hash.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("layers",))
def pick(params, layers):
    return sum(params[i] for i in layers)


params = jnp.arange(5.0)
layers = (0, 2)
print(pick(params, layers=layers))
print(pick(params * 2, layers=layers))

layers = (1, 3, 4)
print(pick(params, layers=layers))
