from jax import jit
import jax.numpy as np


@jit
def example():
    a = np.array([0, 1, 2])
    return np.nonzero(a, size=2)


print([idx.tolist() for idx in example()])
