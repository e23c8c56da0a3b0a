# Repeatedly gather with an index array inside lax.fori_loop, where the body is
# a closure over a value that is a tracer of the enclosing jit.  Closing over
# traced values in loop bodies is supported, so this runs fine.
import jax.numpy as np
from jax import jit, lax


def iterate(f, init_row, steps):
    def body_fun(step, result):
        return f(result)
    return lax.fori_loop(0, steps, body_fun, init_row)


def test_get(a, b):
    return iterate(lambda x: x[a], b, 10)


test_get_jit = jit(test_get)
print(test_get_jit(np.array([1, 2, 3, 0]), np.array([0, 1, 2, 3])).tolist())
