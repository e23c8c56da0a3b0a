"""JAX302's literal unwrapping (`semantics/literal_arrays`): a call that passes an array built from
a number literal, to a parameter every read converts to a Python number, passes the literal
instead, and the parameter becomes static. Golden case: JAX302/array_literal_cutoff_converted_by_helper."""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import Options, check_source, fix_source

PROGRAM = """
import jax
import jax.numpy as jnp


def neighbours(x, cutoff):
    cutoff = float(cutoff)
    if cutoff <= 0.0:
        raise ValueError("cutoff")
    return jnp.abs(x) < cutoff


@jax.jit
def build(x, cutoff):
    {body}


print(build(jnp.arange(3.0), {argument}))
"""


def jax302(body: str, argument: str) -> list:
    source = textwrap.dedent(PROGRAM).format(body=body, argument=argument)
    return [f for f in check_source(source, Options()) if f.code == "JAX302"], source


@pytest.mark.parametrize(
    "argument, passed",
    [
        ("jnp.asarray(5.0, jnp.float32)", "5.0"),
        ("jnp.array(2)", "2"),
        ("jnp.float32(0.5)", "0.5"),
        ("jnp.asarray(-3, dtype=jnp.int32)", "-3"),
    ],
)
def test_an_exact_literal_array_is_passed_as_its_literal(argument: str, passed: str) -> None:
    (finding,), source = jax302("return neighbours(x, cutoff)", argument)
    assert finding.fix is not None, finding.message
    assert f"print(build(jnp.arange(3.0), {passed}))" in fix_source(source).text


@pytest.mark.parametrize(
    "body, argument",
    [
        ("return neighbours(x, cutoff) * cutoff", "jnp.asarray(5.0, jnp.float32)"),  # arithmetic: dtype rules differ
        ("return neighbours(x, cutoff)", "jnp.asarray(0.1, jnp.float32)"),  # float32 does not hold 0.1
        ("return neighbours(x, cutoff)", "jnp.asarray(5.0, jnp.float16)"),  # a dtype not read
        ("return neighbours(x, cutoff.astype(jnp.float32))", "jnp.asarray(5.0)"),  # read as an array
    ],
)
def test_other_reads_or_inexact_literals_are_left_to_a_person(body: str, argument: str) -> None:
    findings, source = jax302(body, argument)
    assert all(f.fix is None for f in findings)
    assert fix_source(source).text == source


def test_through_a_method_an_alias_and_a_keyword() -> None:
    """The same pitfall re-spelled: `jax.numpy` as `np`, the jit by assignment, the literal by
    keyword, and the conversion in a method of a class the jitted function builds."""
    source = textwrap.dedent(
        """
        import jax
        import jax.numpy as np


        class Grid:
            def cells(self, positions, radius):
                radius = int(radius)
                return np.zeros((radius, positions.shape[0]))


        def build_impl(positions, radius):
            return Grid().cells(positions, radius).sum()


        build = jax.jit(build_impl)
        print(build(np.ones(3), radius=np.array(4)))
        """
    )
    fixed = fix_source(source).text
    assert 'build = jax.jit(build_impl, static_argnames=("radius",))' in fixed
    assert "print(build(np.ones(3), radius=4))" in fixed
