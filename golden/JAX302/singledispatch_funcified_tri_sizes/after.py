# A PyTensor-style JAX backend: ops are "funcified" into jax callables and the
# resulting graph function is jit compiled.
from functools import singledispatch

import jax
import jax.numpy as jnp


class Tri:
    def __init__(self, dtype="float32"):
        self.dtype = dtype


class MatMulLower:
    pass


@singledispatch
def jax_funcify(op, **kwargs):
    raise NotImplementedError(type(op))


@jax_funcify.register(Tri)
def jax_funcify_Tri(op, **kwargs):
    def tri(N, M, k):
        return jnp.tri(N, M, k, dtype=op.dtype)
    return tri


@jax_funcify.register(MatMulLower)
def jax_funcify_MatMulLower(op, **kwargs):
    def matmul(mask, x):
        return (mask * x) @ jnp.ones((x.shape[1],), x.dtype)
    return matmul


def funcify_fgraph():
    tri = jax_funcify(Tri())
    matmul = jax_funcify(MatMulLower())

    def jax_funcified_fgraph(N, M, k, x):
        mask = tri(N, M, k)
        return mask, matmul(mask, x)

    return jax_funcified_fgraph


fn = jax.jit(funcify_fgraph(), static_argnames=("N", "M"))
x = jnp.arange(9.0).reshape(3, 3)
mask, out = fn(3, 3, 0, x)
print(mask)
print(out)
