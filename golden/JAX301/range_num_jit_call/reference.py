# Hand fix for jax-ml/jax#1406: keep num traced and let XLA run the loop, with
# lax.fori_loop (a single compilation for every count).
from jax import jit, lax


def foo(num):
    return lax.fori_loop(0, num, lambda i, total: total + 1., 0.)


print(jit(foo)(0))
print(jit(foo)(3))
