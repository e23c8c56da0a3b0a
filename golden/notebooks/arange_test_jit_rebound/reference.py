# Hand fix for jax-ml/jax#5186, flattened from the notebook's cells: n is a size,
# so it is static (by name); each distinct n compiles once.
import jax.numpy as np
from jax import jit


def test_arange(n):
    return np.arange(0, n, 1)


test = jit(test_arange, static_argnames='n')
print(test(5))
n = 7
print(test(n).sum())
