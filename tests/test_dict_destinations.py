"""A value put in a dict display goes where the dict's items go (array_destinations._dict_destination),
and ``d.get(k, default)`` of a traced dict is an item of it (traced_values, and its screen twin)."""

from __future__ import annotations

import pytest

from jaxfix.transforms import Options, check, fix_source

PROGRAM = """\
import jax
import jax.numpy as jnp


def relu(x):
    return max(0.0, x)


def compare(inputs):
    x = inputs{read_x}
    return {{"out": {{"value": relu(x)}}}}


def log(d):
    print(d)


@jax.jit
def step(params):
    result = compare(params)
    {use}
    return result["out"]["value"] * 2.0


print(step({{"x": 0.7}}))
"""


def program(read_x: str = '["x"]', use: str = "pass") -> str:
    return PROGRAM.format(read_x=read_x, use=use)


@pytest.mark.parametrize("read_x", ['["x"]', '.get("x", 0.0)', '.get("x")'])
@pytest.mark.parametrize("narrow", [True, False])
def test_an_item_that_only_goes_where_arrays_serve_becomes_jnp_maximum(read_x: str, narrow: bool) -> None:
    result = check(program(read_x), Options(), narrow=narrow)
    assert [(f.code, f.line) for f in result.findings] == [("JAX304", 6)]
    assert "return jnp.maximum(0.0, x)" in fix_source(program(read_x)).text


@pytest.mark.parametrize(
    "use",
    [
        "log(result)",  # handed whole to code that may read the item as a Python value
        'print(f"{result[\'out\'][\'value\']}")',  # formatted
        'n = range(int(result["out"]["value"]))',  # a Python int made of it
        "result.update(extra=1)",  # a method of the dict
    ],
)
def test_an_item_read_where_a_python_value_may_be_wanted_is_not_rewritten(use: str) -> None:
    findings = check(program(use=use), Options()).findings
    assert all(f.fix is None for f in findings if f.line == 6)
    assert "max(0.0, x)" in fix_source(program(use=use)).text
