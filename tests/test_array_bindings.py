"""`array_values.array_origin` for a name bound more than once or by unpacking: every binding that
can reach the use must give an array, the last binding above the use in its own block wins, and a
jitted function's result is arrays only where each of its returns writes one."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from jaxfix.transforms import Options
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.module import ModuleContext

STEP = """
import jax
import jax.numpy as jnp

@jax.jit
def step(state, key):
    key, sub = jax.random.split(key)
    return state + jax.random.normal(sub, (2,)), key, {{"n": 1}}

state = jnp.zeros(2)
key = jax.random.PRNGKey(0)
{loop}
probe = ({name},)
"""


def origin(loop: str, name: str) -> str | None:
    src = textwrap.dedent(STEP.format(loop=loop, name=name))
    analysis = Analysis(ModuleContext(src, cst.parse_module(src), Options()))
    probe = next(a for a in analysis.ctx.nodes_of(cst.Assign) if analysis.ctx.code(a.targets[0].target) == "probe")
    return array_origin(analysis, probe.value.elements[0].value)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "loop, name, array",
    [
        ("for _ in range(3):\n    state, key, info = step(state, key)", "key", True),  # both bindings arrays
        ("for _ in range(3):\n    state, key, info = step(state, key)", "info", False),  # a dict leaf: a pytree
        ("key = 0\nkey = jax.random.PRNGKey(1)", "key", True),  # the last binding above the use
        ("for _ in range(3):\n    key = 3", "key", False),  # one binding is an int
        ("a, b = jnp.split(jnp.ones(4), 2)", "a", True),
        ("a, b = jax.lax.scan(lambda c, x: (c, x), 0, jnp.ones(3))", "a", False),  # scan's carry may be any pytree
    ],
)
def test_every_binding_must_be_an_array(loop: str, name: str, array: bool) -> None:
    assert (origin(loop, name) is not None) is array


def test_a_loop_target_above_does_not_dominate() -> None:
    """`for key in []:` may bind nothing: the binding before it is still seen."""
    assert origin("key = 3\nfor key in [jnp.ones(2)]:\n    pass", "key") is None
