"""A custom_jvp whose primal needs one argument as a Python value (jax#22513): `fun(x, n, dx)`, the
dx-th derivative of x**n, jitted under the decorator with `dx` static (and tested with a Python
`if`), `dx` written as an ordinary argument; and the fixed form: `dx` listed in nondiff_argnums,
the rule taking it first and putting it back among its primals in its first line.

Run: cd docs/jax407-cases && JAX_PLATFORMS=cpu python custom_jvp_ordinary_static.py
"""
import sys
from functools import partial
from pathlib import Path

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from probe import probe  # noqa: E402


def _value(x, n, dx):
    if dx == 0:
        return x**n
    coef = jax.lax.fori_loop(0, dx, lambda i, c: c * (n - i), 1)
    return coef * x ** (n - dx)


ordinary = jax.custom_jvp(partial(jax.jit, static_argnums=2)(_value))


@ordinary.defjvp
def _ordinary_jvp(a, adot):
    x, n, dx = a
    xdot, ndot, dxdot = adot
    return ordinary(x, n, dx), ordinary(x, n, dx + 1) * xdot


listed = partial(jax.custom_jvp, nondiff_argnums=(2,))(partial(jax.jit, static_argnums=2)(_value))


@listed.defjvp
def _listed_jvp(dx, a, adot):
    a, adot = a[:2] + (dx,) + a[2:], adot[:2] + (None,) + adot[2:]
    x, n, dx = a
    xdot, ndot, dxdot = adot
    return listed(x, n, dx), listed(x, n, dx + 1) * xdot


x = jnp.arange(1.0, 4.0)
for name, fun in (("ordinary", ordinary), ("listed", listed)):
    probe(f"{name}: eager", lambda: fun(x, 3, 0))
    probe(f"{name}: jax.jit(fun, static_argnums=2)", lambda: jax.jit(fun, static_argnums=2)(x, 3, 0))
    probe(f"{name}: jax.grad (one x)", lambda: jax.grad(fun)(2.0, 3, 0))
    probe(f"{name}: jax.vmap(jax.grad(fun), in_axes=(0, None, None))", lambda: jax.vmap(jax.grad(fun), in_axes=(0, None, None))(x, 3, 0))
