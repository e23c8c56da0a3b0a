"""JAX103's and JAX305's facts: cond/switch trace operands for plain branches too; a Python if under vmap/grad.

Run: cd docs/jax103-305-cases && JAX_PLATFORMS=cpu python a_plain_branches_and_ifs.py
"""
import sys
from functools import partial
from pathlib import Path

import jax
import jax.numpy as jnp
from jax import lax

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from probe import probe  # noqa: E402


def sized(n, x):
    return jnp.zeros((n,)) + x.sum()


def scaled(n, x):
    return x * n


def piecewise(x):
    if x > 0:
        return x * 2.0
    return x / 2.0


def selected(x):
    return jnp.where(x > 0, x * 2.0, x / 2.0)


x = jnp.ones(2)
xs = jnp.array([-1.0, 2.0])
probe("lax.cond(True, sized, sized, 3, x), eager", lambda: lax.cond(True, sized, sized, 3, x))
probe("lax.cond(True, partial(sized, 3), partial(sized, 3), x)", lambda: lax.cond(True, partial(sized, 3), partial(sized, 3), x))
probe("lax.switch(0, [sized], 3, x)", lambda: lax.switch(0, [sized], 3, x))
probe("lax.cond(True, scaled, scaled, 3, x): arithmetic only", lambda: lax.cond(True, scaled, scaled, 3, x))
probe("lax.cond(True, lambda n, x: sized(n, x), ..., 3, x)", lambda: lax.cond(True, lambda n, x: sized(n, x), lambda n, x: sized(n, x), 3, x))
probe("jax.vmap(piecewise)(xs)", lambda: jax.vmap(piecewise)(xs))
probe("jax.grad(piecewise)(1.0)", lambda: jax.grad(piecewise)(1.0))
probe("jax.vmap(selected)(xs)", lambda: jax.vmap(selected)(xs))
probe("jax.grad(selected)(1.0)", lambda: jax.grad(selected)(1.0))
probe("piecewise(2.0), eager", lambda: piecewise(2.0))
probe("selected(2.0), eager", lambda: (selected(2.0), type(selected(2.0)).__name__))
probe("jax.jacfwd(piecewise)(1.0)", lambda: jax.jacfwd(piecewise)(1.0))
probe("jax.jacrev(piecewise)(1.0)", lambda: jax.jacrev(piecewise)(1.0))
probe("jax.hessian(piecewise)(1.0)", lambda: jax.hessian(piecewise)(1.0))
probe("jax.value_and_grad(piecewise)(1.0)", lambda: jax.value_and_grad(piecewise)(1.0))
probe("jax.pmap(piecewise)(xs[:1])", lambda: jax.pmap(piecewise)(xs[:1]))
probe("jax.checkpoint(piecewise)(1.0)", lambda: jax.checkpoint(piecewise)(1.0))
probe("jax.remat(piecewise)(1.0)", lambda: jax.remat(piecewise)(1.0))
probe("jax.grad(jax.checkpoint(piecewise))(1.0)", lambda: jax.grad(jax.checkpoint(piecewise))(1.0))
probe("jax.checkpoint(selected)(1.0)", lambda: jax.checkpoint(selected)(1.0))
probe("jax.grad(jax.checkpoint(selected))(1.0)", lambda: jax.grad(jax.checkpoint(selected))(1.0))
probe("lax.switch(0, [sized, sized], 3, x)", lambda: lax.switch(0, [sized, sized], 3, x))
