import jax
import jax.numpy as np


def foo(n):
    if n > 1:
        return np.ones(1)
    return np.zeros(1)


print(jax.jit(foo, static_argnums=(0,))(1))

print(jax.jit(foo, static_argnums=(0,))(float(np.ones(1)[0])))
