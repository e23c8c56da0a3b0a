# Cut down from jax-ml/jax#6853 ("Need a way to specify constants"): the slice
# size d['num'] must be static, so the whole dict is made static, but the dict
# also carries an array ('val'). (The report's call spells the key 'value'; it
# is 'val' here so that the program gets as far as the hash.)
from functools import partial

import numpy as np
import jax.numpy as jnp
from jax import jit


@partial(jit, static_argnums=1)
def foo(x, d: dict):
  return x[:d['num']] + d['val']


print(foo(jnp.arange(10), {'num': 5, 'val': np.arange(5)}))
