# Hand fix for jax-ml/jax#6853 (jakevdp: static_argnums has no per-entry
# granularity): split the dict, the int goes to a static parameter and the array
# stays a traced argument.
from functools import partial

import numpy as np
import jax.numpy as jnp
from jax import jit


@partial(jit, static_argnums=1)
def foo(x, num, val):
  return x[:num] + val


d = {'num': 5, 'val': np.arange(5)}
print(foo(jnp.arange(10), d['num'], d['val']))
