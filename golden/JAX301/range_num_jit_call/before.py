# Cut down from jax-ml/jax#1406 ("'JaxprTracer' object cannot be interpreted as an
# integer"): the loop count of a Python range() is an argument of a function
# jitted by a call expression, so range() receives a tracer.
from jax import jit


def foo(num):
    total = 0.
    for _ in range(num):
        total = total + 1.
    return total


print(jit(foo)(0))
print(jit(foo)(3))
