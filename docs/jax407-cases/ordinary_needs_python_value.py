"""A custom_vjp whose primal needs one argument as a Python value (`int(k)`, jax#11646):
`power(z, k) = z ** int(k)`, `k` written as an ordinary argument, called with `k` a Python
number, and the fixed form: `k` listed in nondiff_argnums, bwd taking it first and returning a
cotangent for `z` only.

Run: cd docs/jax407-cases && JAX_PLATFORMS=cpu python ordinary_needs_python_value.py
"""
import sys
from functools import partial
from pathlib import Path

import jax

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from probe import probe  # noqa: E402


@jax.custom_vjp
def ordinary(z, k):
    return z ** int(k)


def _ordinary_fwd(z, k):
    return ordinary(z, k), (z, int(k))


def _ordinary_bwd(res, g):
    z, k = res
    return g * k * z ** (k - 1), None


ordinary.defvjp(_ordinary_fwd, _ordinary_bwd)


@partial(jax.custom_vjp, nondiff_argnums=(1,))
def listed(z, k):
    return z ** int(k)


def _listed_fwd(z, k):
    return listed(z, k), z


def _listed_bwd(k, z, g):
    return (g * int(k) * z ** (int(k) - 1),)


listed.defvjp(_listed_fwd, _listed_bwd)

for name, f in (("ordinary", ordinary), ("listed", listed)):
    probe(f"{name}: eager, k=2", lambda: f(3.0, 2))
    probe(f"{name}: eager, k=2.0", lambda: f(3.0, 2.0))
    probe(f"{name}: grad over z", lambda: jax.grad(f)(3.0, 2))
    probe(f"{name}: jit, k static", lambda: jax.jit(f, static_argnums=1)(3.0, 2))
    probe(f"{name}: grad of jit, k static", lambda: jax.grad(jax.jit(f, static_argnums=1))(3.0, 2.0))
    probe(f"{name}: jit, k traced", lambda: jax.jit(f)(3.0, 2))
