"""Kernel zoo (cut down from probfindiff.utils.kernel_zoo / kernel / defaults)."""

import functools
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def exponentiated_quadratic(x, y, input_scale: float = 1.0, output_scale: float = 1.0):
    x = jnp.asarray(x)
    y = jnp.asarray(y)
    difference = x - y
    return output_scale * jnp.exp(-input_scale * jnp.dot(difference, difference) / 2.0)


@jax.jit
def polynomial(x, y, *, p):
    r"""Polynomial kernels.

    k(x,y) = p[0]*<x, y>^(N-1) + ... + p[N-1]
    """
    x = jnp.asarray(x)
    y = jnp.asarray(y)
    p = jnp.asarray(p)
    val = jnp.polyval(p, jnp.dot(x, y)) + 1
    return val


def batch_gram(k):
    k_vmapped_x = jax.vmap(k, in_axes=(0, None), out_axes=-1)
    return jax.jit(jax.vmap(k_vmapped_x, in_axes=(None, -1), out_axes=-1)), jax.jit(k)


def kernel(*, min_order: int):
    """Default kernel function."""
    return functools.partial(polynomial, p=jnp.ones((min_order,)))


xs = jnp.arange(8.0).reshape((4, 2))
ys = jnp.arange(12.0).reshape((6, 2))
k_batch, _ = batch_gram(kernel(min_order=3))
print(np.asarray(k_batch(xs / 10, ys.T / 10), dtype=np.float64).round(4).tolist())
k_batch, _ = batch_gram(exponentiated_quadratic)
print(np.asarray(k_batch(xs / 10, ys.T / 10), dtype=np.float64).round(4).tolist())
