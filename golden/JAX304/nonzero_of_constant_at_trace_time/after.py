from jax import jit
import jax.numpy as np
from jax import ensure_compile_time_eval


@jit
def example():
    with ensure_compile_time_eval():
        a = np.array([0, 1, 2])
        return np.nonzero(a)


print([idx.tolist() for idx in example()])
