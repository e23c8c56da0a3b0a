# Hand fix for jax-ml/jax#883: v is an array used only in array arithmetic, so it
# does not need to be static; drop static_argnums and let jit trace it.
import jax.numpy as np
from jax import jit


@jit
def f(x, v):
    return x + v.sum()


x = np.ones((2, 2))
v = np.array([1, 2, 3])
print(f(x, v))
print(f(x, v))
