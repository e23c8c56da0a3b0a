# The "working dirty trick" from jax-ml/jax#6853: the dict is passed as an
# ordinary (traced) pytree argument, not a static one, and the slice size is
# carried in an array's shape, which jit keeps concrete.
import numpy as np
import jax.numpy as jnp
from jax import jit


@jit
def bar(x, d: dict):
  return x[:d['num'].shape[0]] + d['val']


print(bar(jnp.arange(10), {'num': jnp.zeros((5, 0)), 'val': np.arange(5)}))
print(bar(jnp.arange(10), {'num': jnp.zeros((3, 0)), 'val': np.arange(3)}))
