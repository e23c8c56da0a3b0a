"""Where custom_jvp's nondiff_argnums fails on a tracer: `masked(arr, mask) = arr * mask`, `mask`
listed in nondiff_argnums (jax#20889), called with `mask` an array that outer code traces, and the
fixed form: `mask` an ordinary argument whose tangent the jvp rule ignores.

Run: cd docs/jax407-cases && JAX_PLATFORMS=cpu python custom_jvp_nondiff.py
"""
import sys
from functools import partial
from pathlib import Path

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from probe import probe  # noqa: E402


@partial(jax.custom_jvp, nondiff_argnums=(1,))
def listed(arr, mask):
    return arr * mask


@listed.defjvp
def _listed_jvp(mask, primals, tangents):
    (arr,), (arr_dot,) = primals, tangents
    return arr * mask, arr_dot * mask


@jax.custom_jvp
def ordinary(arr, mask):
    return arr * mask


@ordinary.defjvp
def _ordinary_jvp(primals, tangents):
    (arr, mask), (arr_dot, _) = primals, tangents
    return arr * mask, arr_dot * mask


x = jnp.linspace(0.5, 2.0, 4)
mask = jnp.array([1.0, 0.0, 1.0, 0.0])


def scanned(f):
    def loss(x, mask):
        def step(carry, _):
            return (f(*carry), carry[1]), None

        (out, _), _ = jax.lax.scan(step, (x, mask), None, length=2)
        return out.sum()

    return loss


for name, f in (("listed", listed), ("ordinary", ordinary)):
    probe(f"{name}: eager", lambda: f(x, mask).tolist())
    probe(f"{name}: grad, mask concrete", lambda: jax.grad(lambda x: f(x, mask).sum())(x).tolist())
    probe(f"{name}: jit, mask a jit parameter", lambda: jax.jit(f)(x, mask).tolist())
    probe(f"{name}: grad of jit, mask traced", lambda: jax.grad(lambda x, m: jax.jit(f)(x, m).sum())(x, mask).tolist())
    probe(f"{name}: vmap over mask", lambda: jax.vmap(f, in_axes=(None, 0))(x, jnp.stack([mask, 1 - mask])).tolist())
    probe(f"{name}: scan carrying mask, eager", lambda: float(scanned(f)(x, mask)))
    probe(f"{name}: grad of scan carrying mask (jax#20889)", lambda: jax.grad(scanned(f))(x, mask).tolist())
    probe(f"{name}: jit of grad of scan carrying mask", lambda: jax.jit(jax.grad(scanned(f)))(x, mask).tolist())
