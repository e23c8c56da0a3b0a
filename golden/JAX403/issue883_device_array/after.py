# jax-ml/jax#883: an array argument marked static (then: a cache error; now: not hashable).
import jax.numpy as np
from jax import jit
from functools import partial


@jit
def f(x, v):
    return x


def main():
    x = np.ones((2, 2))
    v = np.array([1, 2, 3])
    firstCall = f(x, v)
    print(firstCall)
    secondCall = f(x, v)
    print(secondCall)


if __name__ == "__main__":
    main()
