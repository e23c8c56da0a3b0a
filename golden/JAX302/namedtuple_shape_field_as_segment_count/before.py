# Sparse matrix - dense vector multiplication with a coordinate-list (COO)
# NamedTuple that also carries the matrix shape.
from typing import NamedTuple, Sequence, Union

import numpy as onp
import jax
import jax.numpy as jnp


class COO(NamedTuple):
    """Defines a namedtuple for coordinate list sparse matrix (COO)."""

    rows: jnp.ndarray
    cols: jnp.ndarray
    vals: jnp.ndarray
    shape: Sequence[int]


def to_coo(dense: onp.ndarray) -> COO:
    rows, cols = onp.nonzero(dense)
    return COO(jnp.asarray(rows), jnp.asarray(cols), jnp.asarray(dense[rows, cols]), dense.shape)


@jax.jit
def sparse_mat_vec_mul(sparse_mat: Union[COO, ], vec: jnp.ndarray):
    """Performs sparse matrix - dense vector multiplication"""
    prod = jnp.take(vec, sparse_mat.cols, axis=0) * sparse_mat.vals[:, None]
    return jax.ops.segment_sum(prod, sparse_mat.rows, sparse_mat.shape[0])


dense = onp.array([[2.0, 0.0, 0.0, 1.0],
                   [0.0, 0.0, 3.0, 0.0],
                   [0.0, 4.0, 0.0, 0.0]])
A = to_coo(dense)
vec = jnp.arange(1.0, 9.0).reshape(4, 2)
print(sparse_mat_vec_mul(A, vec))
print(onp.allclose(sparse_mat_vec_mul(A, vec), dense @ onp.asarray(vec)))
