# Hand fix for jax-ml/jax#1007, mattjj's first alternative ("solving the problem
# with recompilation"): make k static.
from functools import partial

import jax
import jax.numpy as np


@partial(jax.jit, static_argnums=(1,))
def sum_first_k(a, k):
  return np.sum(jax.lax.dynamic_slice(a, (0,), (k,)))


print(sum_first_k(np.arange(3.0), 2))
print(sum_first_k(np.arange(5.0), 4))
