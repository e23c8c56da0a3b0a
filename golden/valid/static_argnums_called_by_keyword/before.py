from functools import partial

from jax import jit


@partial(jit, static_argnums=(3,))
def f(a, b, c, d):
    if d > 0:
        return a + b - c
    else:
        return d


print(int(f(a=1, b=2, c=3, d=4)))
print(int(f(1, 2, 3, 4)))
print(int(f(5, 2, 3, d=4)))
print(int(f(1, 2, 3, d=-1)))
