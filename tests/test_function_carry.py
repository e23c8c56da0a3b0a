"""A function, or an equinox module holding one, handed to a lax primitive where it takes values
(JAX405's function_carry): reported at that value, never where the primitive takes functions."""

from __future__ import annotations

import pytest

from jaxfix.transforms import Options, check

HEAD = """\
import jax
import jax.numpy as jnp
from jax import lax


def f(x):
    return x * 2.0


g = lambda x: x + 1.0
x = jnp.ones(3)
"""


@pytest.mark.parametrize(
    "call",
    [
        "lax.scan(lambda c, _: (c, None), f, None, length=2)",
        "lax.fori_loop(0, 2, lambda i, c: c, g)",
        "lax.while_loop(lambda c: False, lambda c: c, init_val=f)",
    ],
)
@pytest.mark.parametrize("narrow", [True, False])
def test_a_function_where_a_primitive_takes_values_is_reported(call: str, narrow: bool) -> None:
    findings = check(HEAD + f"print({call})\n", Options(), narrow=narrow).findings
    assert [(f.code, f.fix) for f in findings] == [("JAX405", None)]
    assert "which is no JAX type" in findings[0].message


@pytest.mark.parametrize(
    "call",
    [
        "lax.scan(lambda c, _: (f(c), None), x, None, length=2)",  # closed over, the carry an array
        "lax.cond(True, f, g, x)",  # branches are functions
        "lax.switch(0, [f, g], x)",
        "lax.fori_loop(0, 2, lambda i, c: f(c), x)",
    ],
)
@pytest.mark.parametrize("narrow", [True, False])
def test_functions_where_a_primitive_takes_functions_are_not(call: str, narrow: bool) -> None:
    assert check(HEAD + f"print({call})\n", Options(), narrow=narrow).findings == []


def test_the_old_five_argument_cond_is_not_read_as_operands() -> None:
    """``cond(pred, true_operand, true_fun, false_operand, false_fun)``: a function at position 4 is a branch."""
    assert check(HEAD + "print(lax.cond(True, x, f, x, g))\n", Options(), narrow=False).findings == []


def test_a_function_operand_of_cond_is_left_to_jax103() -> None:
    """JAX103 binds a function operand into the branches (a fix); JAX405 says nothing more there."""
    findings = check(HEAD + "print(lax.cond(True, lambda h: h(x), lambda h: h(x), f))\n", Options()).findings
    assert [f.code for f in findings] == ["JAX103"]
