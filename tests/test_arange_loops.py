"""JAX402's loop over ``jnp.arange`` (`rules.jax402_static_arithmetic.arange_loop`): rewritten into
``range`` only where the loop fails today and the loop variable cannot tell the two apart; a loop
that works, or one not staged, gets nothing; a use a Python int could change makes it a report.
Each verdict is held on the fast path and the whole analysis alike, and each program is run."""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import fix_source

from .helpers import findings_both_ways, run_in_process

PROGRAM = """
import jax
import jax.numpy as jnp

STRIDES = (1, 2, 4)


{decorator}
def walk(x):
    total = x
    for i in {iterated}:
        {body}
    return total


RESULT = walk(jnp.arange(3.0))
"""


def program(body: str, *, iterated: str = "jnp.arange(3)", decorator: str = "@jax.jit") -> str:
    return textwrap.dedent(PROGRAM.format(body=body, iterated=iterated, decorator=decorator))


def test_an_index_into_a_tuple_is_fixed_with_range() -> None:
    src = program("total = total * STRIDES[i] + x[i]", iterated="jnp.arange(3)[::-1]")
    (finding,) = findings_both_ways(src, "JAX402")
    assert finding.fix is not None and "the tuple `STRIDES` needs a concrete int as its index" in finding.message
    with pytest.raises(Exception, match="__index__"):
        run_in_process(src)
    fixed = fix_source(src).text
    assert fixed == src.replace("jnp.arange(3)[::-1]", "range(3)[::-1]")
    by_hand = src.replace("jnp.arange(3)[::-1]", "(2, 1, 0)")  # the reference: the ints written out
    assert run_in_process(fixed)["RESULT"].tolist() == run_in_process(by_hand)["RESULT"].tolist() == [5.0, 13.0, 21.0]


def test_a_loop_whose_variable_only_indexes_an_array_works_and_gets_nothing() -> None:
    src = program("total = total + x[i] * i")
    assert findings_both_ways(src, "JAX402") == []
    run_in_process(src)


def test_an_eager_loop_gets_nothing() -> None:
    src = program("total = total * STRIDES[i]", decorator="")
    assert findings_both_ways(src, "JAX402") == []
    run_in_process(src)


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("total = total * STRIDES[i] * (i * 0.5)", "`i` is used in `(i * 0.5)`"),
        ("total = total * STRIDES[i] + jnp.float32(i)", "`i` is used in `jnp.float32(i)`"),
        ("total = total * STRIDES[i]\n    total = total + i", "`i` is read after the loop"),
    ],
)
def test_a_use_a_python_int_could_change_makes_a_report(body: str, why: str) -> None:
    (finding,) = findings_both_ways(program(body), "JAX402")
    assert finding.fix is None and why in finding.message


def test_a_count_that_is_not_a_proven_int_is_left_alone() -> None:
    src = program("total = total * STRIDES[i]", iterated="jnp.arange(x.shape[0] / 1)")
    assert findings_both_ways(src, "JAX402") == []
