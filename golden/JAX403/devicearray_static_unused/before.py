# Cut down from jax-ml/jax#883 ("DeviceArray as static argument: incompatible with
# jit cache?"): v is listed in static_argnums but is a jax array; in 2019 the
# second call failed in the cache lookup, today the first call refuses to hash it.
import jax.numpy as np
from jax import jit
from functools import partial


@partial(jit, static_argnums=(1,))
def f(x, v):
    return x + v.sum()


def main():
    x = np.ones((2, 2))
    v = np.array([1, 2, 3])
    firstCall = f(x, v)
    print(firstCall)
    secondCall = f(x, v)
    print(secondCall)


if __name__ == '__main__':
    main()
