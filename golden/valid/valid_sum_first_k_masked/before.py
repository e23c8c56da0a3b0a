# mattjj's second alternative in jax-ml/jax#1007 ("solve it with masking"): k
# stays traced; the only size is len(a), static under jit, and jnp.arange(n)
# is compared with the traced k instead of slicing by it.
import jax
import jax.numpy as np


@jax.jit
def sum_first_k(a, k):
  n = len(a)
  return np.sum(np.where(np.arange(n) < k, a, 0))


print(sum_first_k(np.arange(3.0), 2))
print(jax.vmap(sum_first_k, in_axes=(None, 0))(np.arange(5.0), np.array([1, 4])))
