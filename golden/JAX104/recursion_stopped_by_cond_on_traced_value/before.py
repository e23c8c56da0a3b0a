# Cut down from https://github.com/jax-ml/jax/issues/517
# A factorial written recursively, with lax.cond on the traced argument as the base case.
import jax
from jax import lax


def f(x):
    return lax.cond(x < 1, lambda x: 1.0, lambda x: x * f(x - 1), x)


print(float(jax.jit(f)(5.0)))
