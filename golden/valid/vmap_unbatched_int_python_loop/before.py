# Cut down from https://github.com/jax-ml/jax/issues/700
import jax.numpy as np
from jax import vmap


def f(x, n):
  for _ in range(n):
    x = 2 * x
  return x


f_mapped = vmap(f, (0, None), 0)
X = np.array([[1], [2], [3]])
print(f_mapped(X, 5).ravel().tolist())

