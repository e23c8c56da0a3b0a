"""F. `lax.psum` of a Python constant is the axis size, a concrete value (jax-md's tpu.py).

jax's `_psum` handles a leaf that is not a tracer apart: it returns the constant times the
axis size, computed in Python, so `range(lax.psum(1, axis))` works under vmap and pmap; psum
of an array under vmap is a tracer like any other.

    JAX_PLATFORMS=cpu python docs/jax4xx-cases/f_psum_of_constant.py
"""
import os
import sys

import jax
import jax.numpy as jnp
from jax import lax

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from probe import probe  # noqa: E402


def count_steps(x):
    n = lax.psum(1, "i")
    return jnp.stack([x + k for k in range(n)])


def count_steps_float(x):
    n = lax.psum(2.0, "i")
    return jnp.zeros(int(n)) + x


def sized_by_array(x):
    n = lax.psum(jnp.ones((), jnp.int32), "i")  # eager under vmap alone: a concrete array
    return jnp.zeros(n) + x


probe("vmap: range(lax.psum(1, 'i'))", lambda: jax.vmap(count_steps, axis_name="i")(jnp.arange(3.0)).shape)
probe("pmap: range(lax.psum(1, 'i'))", lambda: jax.pmap(count_steps, axis_name="i")(jnp.arange(1.0)).shape)
probe("vmap: int(lax.psum(2.0, 'i'))", lambda: jax.vmap(count_steps_float, axis_name="i")(jnp.arange(3.0)).shape)
probe("vmap: jnp.zeros(lax.psum(jnp.ones(()), 'i'))", lambda: jax.vmap(sized_by_array, axis_name="i")(jnp.arange(3.0)).shape)
probe("jit(vmap): range(lax.psum(1, 'i'))", lambda: jax.jit(jax.vmap(count_steps, axis_name="i"))(jnp.arange(3.0)).shape)
probe("jit(vmap): jnp.zeros(lax.psum(jnp.ones(()), 'i'))", lambda: jax.jit(jax.vmap(sized_by_array, axis_name="i"))(jnp.arange(3.0)).shape)
