"""JAX405's facts: which Python values checkpoint, vmap, pmap, make_jaxpr and eval_shape trace, and the fixes.

Run: cd docs/jax405-cases && JAX_PLATFORMS=cpu python a_transforms_trace_python_values.py
"""
import sys
from functools import partial
from pathlib import Path

import jax
import jax.numpy as jnp
from jax import lax

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from probe import probe  # noqa: E402


def flagged(x, flag=None):
    if flag:
        return x
    return x - 1


def counted(x, n):
    for _ in range(n):
        x = x + 1
    return x


def scale(x, s):
    return x * s


x = jnp.ones(2)
xs = jnp.ones((3, 2))
one = jnp.ones((1, 2))
probe("checkpoint(f)(x, flag=False)", lambda: jax.checkpoint(flagged)(x, flag=False))
probe("checkpoint(partial(f, flag=False))(x)", lambda: jax.checkpoint(partial(flagged, flag=False))(x))
probe("remat(f)(x, flag=False)", lambda: jax.remat(flagged)(x, flag=False))
probe("checkpoint(f)(x, 2), range(n)", lambda: jax.checkpoint(counted)(x, 2))
probe("checkpoint(f)(x, 2.0), x * s", lambda: jax.checkpoint(scale)(x, 2.0))
probe("checkpoint(f, static_argnums=(1,))(x, 2)", lambda: jax.checkpoint(counted, static_argnums=(1,))(x, 2))
probe("checkpoint(f, static_argnums=(1,))(x, n=2)", lambda: jax.checkpoint(counted, static_argnums=(1,))(x, n=2))
probe("jit(checkpoint(f, static_argnums=(1,)), static_argnums=1)(x, n=2)",
      lambda: jax.jit(jax.checkpoint(counted, static_argnums=(1,)), static_argnums=1)(x, n=2))
probe("vmap(f)(xs, 2)", lambda: jax.vmap(counted)(xs, 2))
probe("vmap(f)(xs, 2.0), x * s", lambda: jax.vmap(scale)(xs, 2.0))
probe("vmap(f, in_axes=(0, None))(xs, 2), range(n)", lambda: jax.vmap(counted, in_axes=(0, None))(xs, 2))
probe("vmap(f)(xs, n=2)", lambda: jax.vmap(counted)(xs, n=2))
probe("vmap(f, in_axes=(0, None))(xs, n=2)", lambda: jax.vmap(counted, in_axes=(0, None))(xs, n=2))
probe("vmap(partial(f, n=2))(xs)", lambda: jax.vmap(partial(counted, n=2))(xs))
probe("make_jaxpr(f)(x, 2)", lambda: jax.make_jaxpr(counted)(x, 2).out_avals)
probe("make_jaxpr(f, static_argnums=(1,))(x, 2)", lambda: jax.make_jaxpr(counted, static_argnums=(1,))(x, 2).out_avals)
probe("make_jaxpr(f, static_argnums=(1,))(x, n=2)", lambda: jax.make_jaxpr(counted, static_argnums=(1,))(x, n=2).out_avals)
probe("pmap(f)(one, 2)", lambda: jax.pmap(counted)(one, 2))
probe("pmap(f, static_broadcasted_argnums=(1,))(one, 2)", lambda: jax.pmap(counted, static_broadcasted_argnums=(1,))(one, 2))
probe("pmap(f, static_broadcasted_argnums=(1,))(one, n=2)", lambda: jax.pmap(counted, static_broadcasted_argnums=(1,))(one, n=2))
probe("pmap(f, in_axes=(0, None))(one, 2.0), x * s", lambda: jax.pmap(scale, in_axes=(0, None))(one, 2.0))
probe("pmap(f, in_axes=(0, None))(one, 2), range(n)", lambda: jax.pmap(counted, in_axes=(0, None))(one, 2))
probe("pmap(lambda x, n, s: ..., in_axes=(0, None, None), static_broadcasted_argnums=(1,))(one, 2, 2.0)",
      lambda: jax.pmap(lambda x, n, s: counted(x, n) * s, in_axes=(0, None, None), static_broadcasted_argnums=(1,))(one, 2, 2.0))
probe("pmap(lambda x, n, s: ..., in_axes=(0, None), static_broadcasted_argnums=(1,))(one, 2, 2.0)",
      lambda: jax.pmap(lambda x, n, s: counted(x, n) * s, in_axes=(0, None), static_broadcasted_argnums=(1,))(one, 2, 2.0))
lhs = jax.ShapeDtypeStruct((1, 1, 8, 8), jnp.float32)
rhs = jax.ShapeDtypeStruct((4, 1, 3, 3), jnp.float32)
probe("eval_shape(conv, lhs, rhs, (1, 1), 'SAME')", lambda: jax.eval_shape(lax.conv_general_dilated, lhs, rhs, (1, 1), "SAME").shape)
probe("eval_shape(lambda a, b: conv(a, b, (1, 1), 'SAME'), lhs, rhs)",
      lambda: jax.eval_shape(lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "SAME"), lhs, rhs).shape)
probe("eval_shape(f, x, 2), range(n)", lambda: jax.eval_shape(counted, x, 2).shape)
probe("grad(f)(x, 2), argnums=0 only", lambda: jax.grad(lambda x, n: counted(x, n).sum())(x, 2))
