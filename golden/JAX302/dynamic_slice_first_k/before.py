# Cut down from jax-ml/jax#1007 ("lax.dynamic_slice inside jit", shoyer): sum the
# first k entries; a[:k] is refused under jit, the error suggests
# lax.dynamic_slice, and that refuses a traced size as well.
import jax
import jax.numpy as np


@jax.jit
def sum_first_k(a, k):
  return np.sum(jax.lax.dynamic_slice(a, (0,), (k,)))


print(sum_first_k(np.arange(3.0), 2))
print(sum_first_k(np.arange(5.0), 4))
