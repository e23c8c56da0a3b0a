# Cut down from jax-ml/jax#1406 ("'JaxprTracer' object cannot be interpreted as an
# integer"): the loop count of a Python range() is an argument of a function
# jitted by a call expression, so range() receives a tracer.
from jax import jit
from jax.lax import fori_loop


def foo(num):
    total = 0.
    total = fori_loop(0, num, lambda _, total: total + 1., total)
    return total


print(jit(foo)(0))
print(jit(foo)(3))
