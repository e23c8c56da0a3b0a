"""A jitted factory that returns a function (repairs.returned_function_jit, JAX302): the jit moves onto
what it returns where that is proven, and no static-argument fix is ever offered (jit cannot return a
function whatever is static: that rewrite broke jax#689's program)."""

from __future__ import annotations

import pytest

from jaxfix.transforms import Options, check, fix_source

FACTORY = """\
import jax
import jax.numpy as jnp
from functools import partial


{decorator}
def feature_map(n, d, seed=0):
    W = jax.random.normal(jax.random.PRNGKey(seed), (d, n))
{body}


{use}
"""

LAMBDA = "    return lambda x: jnp.cos(W @ x)"
NESTED = "    def phi(x):\n        return jnp.cos(W @ x)\n\n    return phi"


def program(decorator: str = "@jax.jit", body: str = LAMBDA, use: str = "print(feature_map(5, 3)(jnp.ones(5)))") -> str:
    return FACTORY.format(decorator=decorator, body=body, use=use)


@pytest.mark.parametrize("body", [LAMBDA, NESTED])
def test_the_jit_moves_onto_the_returned_function(body: str) -> None:
    fixed = fix_source(program(body=body))
    assert fixed.findings == ()
    assert "@jax.jit" not in fixed.text
    assert ("return jax.jit(lambda x: jnp.cos(W @ x))" if body is LAMBDA else "return jax.jit(phi)") in fixed.text


@pytest.mark.parametrize(
    ("parts", "why"),
    [
        ({"decorator": "@partial(jax.jit, static_argnums=2)"}, "its options name the factory's parameters"),
        ({"use": "lowered = feature_map.lower(5, 3)"}, "a use reads the jitted object"),
        ({"body": "    return W.sum()"}, "it returns an array, not a function"),
    ],
)
def test_no_move_and_no_static_fix_where_not_proven(parts: dict[str, str], why: str) -> None:
    findings = check(program(**parts), Options()).findings
    moved = [f for f in findings if f.fix is not None and "jit the function" in (f.fix.description or "")]
    assert moved == [], why
    if "body" not in parts:
        assert all(f.fix is None for f in findings), why  # a static fix would leave jit returning a function
