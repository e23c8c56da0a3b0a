# Cut down from jax-ml/jax#10400 (loops.Scope() arguments to iterate over): an
# inner loop whose start is the outer loop's index. jax.experimental.loops is
# gone, so the outer s.range loop is re-staged as lax.fori_loop and the inner
# one as the Python range the user wrote.
import jax.numpy as np
from jax import lax

x = np.arange(1.0, 5.0)


def upper_products(x):
    arr = np.zeros(shape = (4, 4), dtype = np.float32)

    def outer(i, arr):
        for j in range(i, x.shape[0]):
            arr = arr.at[i, j].set(x[i] * x[j])
        return arr

    return lax.fori_loop(0, x.shape[0], outer, arr)


print(upper_products(x))
