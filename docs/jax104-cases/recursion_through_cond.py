"""JAX104's facts: a function that recurses through lax.cond, with a static and a traced predicate.

Run: cd docs/jax104-cases && JAX_PLATFORMS=cpu python recursion_through_cond.py
"""
import sys
from pathlib import Path

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from probe import probe  # noqa: E402

sys.setrecursionlimit(400)


def halve_cond(x):
    return jax.lax.cond(len(x) > 1, lambda x: halve_cond(x[: len(x) // 2]) * 2, lambda x: x, x)


def halve_if(x):
    return halve_cond_if_body(x) if len(x) > 1 else x


def halve_cond_if_body(x):
    return halve_if(x[: len(x) // 2]) * 2


def count_down_cond(n):
    return jax.lax.cond(n > 0, lambda n: count_down_cond(n - 1) + 1, lambda n: n, n)


def count_down_switch(x):
    return jax.lax.switch(jnp.minimum(len(x), 1), [lambda x: x, lambda x: count_down_switch(x[1:])], x)


x = jnp.arange(8.0)
probe("jit(halve_cond)(arange(8)): static predicate len(x) > 1", lambda: jax.jit(halve_cond)(x).tolist())
probe("halve_cond(arange(8)) eagerly", lambda: halve_cond(x).tolist())
probe("jit(halve_if)(arange(8)): the same as a Python conditional", lambda: jax.jit(halve_if)(x).tolist())
probe("halve_if(arange(8)) eagerly", lambda: halve_if(x).tolist())
probe("jit(count_down_cond)(3): traced predicate", lambda: int(jax.jit(count_down_cond)(3)))
probe("count_down_cond(3) eagerly", lambda: int(count_down_cond(3)))
probe("jit(count_down_switch)(arange(3)): switch, static index", lambda: jax.jit(count_down_switch)(jnp.arange(3.0)).tolist())
