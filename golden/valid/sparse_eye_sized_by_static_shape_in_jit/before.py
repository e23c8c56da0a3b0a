# From jax-ml/jax#13340 ("sparse.eye calls Numpy preventing JIT"): inside a jitted
# function the size passed to sparse.eye comes from A.shape[0], which is a static
# Python int even though A itself is traced -- on current JAX this compiles fine.
import jax
import jax.numpy as jnp
import numpy as np
from jax import jit
from jax.experimental.sparse import eye


def f(A):
    n = A.shape[0]
    return eye(n)


def regularized_solve(A, b, lam=0.1):
    n = A.shape[0]                      # static: shapes are known at trace time
    I = eye(n, dtype=A.dtype)
    M = A + lam * I.todense()
    return jnp.linalg.solve(M, b)


A = jnp.ones([3, 3])
print(f(A).todense())
print(jit(f)(A).todense())
b = jnp.arange(3.0)
print(np.round(np.asarray(jit(regularized_solve)(A + jnp.eye(3), b)), 4))
