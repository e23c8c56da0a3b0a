# Hand fix for jax-ml/jax#16994: tile's repetitions decide the output shape, so
# they must be static, and a static argument must be hashable: pass a tuple.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def foo(a, b):
    print(f"a.shape {a.shape}")
    print(f"b.shape {np.shape(b)}")
    return jnp.tile(a, b)


a = np.ones([1, 20, 20])
b = np.array([64, 1, 1])
print(foo(a, b).shape)
foo_jit = jax.jit(foo, static_argnums=(1,))
print(foo_jit(a, tuple(int(r) for r in b)).shape)
