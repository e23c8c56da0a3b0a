# Hand fix (inner loop as a fori_loop with a traced lower bound) of jax-ml/jax#10400 (loops.Scope() arguments to iterate over): an
# inner loop whose start is the outer loop's index. jax.experimental.loops is
# gone, so the outer s.range loop is re-staged as lax.fori_loop and the inner
# one as the Python range the user wrote.
import jax.numpy as np
from jax import lax

x = np.arange(1.0, 5.0)


def upper_products(x):
    arr = np.zeros(shape = (4, 4), dtype = np.float32)

    def outer(i, arr):
        def inner(j, arr):
            return arr.at[i, j].set(x[i] * x[j])
        return lax.fori_loop(i, x.shape[0], inner, arr)

    return lax.fori_loop(0, x.shape[0], outer, arr)


print(upper_products(x))
