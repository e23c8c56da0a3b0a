from jax import jit
import jax.numpy as np


@jit
def example():
    a = np.array([0, 1, 2])
    return np.nonzero(a)


print([idx.tolist() for idx in example()])
