from functools import partial

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax


def _const(example, val):
  return np.array(val, example.dtype)


class COO:
  """Minimal COO matrix (data, row, col) with a static shape."""

  def __init__(self, args, *, shape):
    self.data, self.row, self.col = args
    self.shape = shape

  @classmethod
  def _empty(cls, shape, *, dtype=None, index_dtype='int32'):
    data = jnp.empty(0, dtype)
    row = col = jnp.empty(0, index_dtype)
    return cls((data, row, col), shape=shape)

  @classmethod
  def _eye(cls, N, M, k, *, dtype=None, index_dtype='int32'):
    if k > 0:
      diag_size = min(N, M - k)
    else:
      diag_size = min(N + k, M)

    if diag_size <= 0:
      # if k is out of range, return an empty matrix.
      return cls._empty((N, M), dtype=dtype, index_dtype=index_dtype)

    k = np.asarray(k)
    data = jnp.ones(diag_size, dtype=dtype)
    idx = jnp.arange(diag_size, dtype=index_dtype)
    zero = _const(idx, 0)
    k = _const(idx, k)
    row = lax.sub(idx, lax.cond(k >= 0, lambda: zero, lambda: k))
    col = lax.add(idx, lax.cond(k <= 0, lambda: zero, lambda: k))
    return cls((data, row, col), shape=(N, M))

  def todense(self):
    return jnp.zeros(self.shape, self.data.dtype).at[self.row, self.col].add(self.data)


def eye(N, M=None, k=0):
  return COO._eye(N, N if M is None else M, k, dtype=jnp.float32).todense()


for k in [-2, 0, 1]:
  func = partial(eye, 3, 4, k)
  print("k =", k, "eager:", func().tolist())
  print("k =", k, "jit:  ", jax.jit(func)().tolist())
