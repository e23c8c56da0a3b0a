"""Functions handed to a helper's parameter (``choose(flag, grow, shrink, x)`` then ``lax.cond(flag,
on_true, on_false, ...)`` in the helper): the model resolves the parameter to the one function every
call hands it (`tracing.TraceIndex.passed_arguments`, `callables.passed_target`), on the fast path
and the whole analysis alike; several functions, or a parameter handed on to itself, resolve to
nothing (and end)."""

from __future__ import annotations

from jaxfix.transforms import Options, check, check_source, fix_source

PROGRAM = """\
import functools

import jax
import jax.numpy as jnp
from jax import lax


@functools.partial(jax.jit, static_argnums=0)
def grow(n, x):
    return jnp.concatenate([x] * n)


@functools.partial(jax.jit, static_argnums=0)
def shrink(n, x):
    return jnp.zeros(n * x.shape[0])


def choose(flag, on_true, on_false, x):
    return lax.cond(flag, on_true, on_false, 3, x)


def apply(flag, x):
    return choose(flag, {first}, {second}, x)


print(apply(True, jnp.array([1.0, 2.0])))
"""


def test_branches_handed_to_a_helper_are_bound_where_the_helper_calls_cond() -> None:
    source = PROGRAM.format(first="grow", second="shrink")
    fast, whole = check(source, Options()), check(source, Options(), narrow=False)
    assert [(f.code, f.line) for f in fast.findings] == [(f.code, f.line) for f in whole.findings] == [("JAX101", 19)]
    fixed = fix_source(source).text
    assert "lax.cond(flag, functools.partial(on_true, 3), functools.partial(on_false, 3), x)" in fixed
    assert fix_source(fixed).text == fixed


def test_a_parameter_given_two_functions_is_not_resolved() -> None:
    source = PROGRAM.format(first="grow", second="shrink") + "print(choose(False, shrink, grow, jnp.ones(2)))\n"
    # `on_true` holds `grow` at one call and `shrink` at the other: no one function to reason about
    assert [f.code for f in check(source, Options(), narrow=False).findings] == []


def test_a_parameter_handed_on_to_itself_ends() -> None:
    source = """\
import functools

import jax


@functools.partial(jax.jit, static_argnums=0)
def leaf(n, x):
    return x * n


def walk(fn, x, depth):
    if depth == 0:
        return fn(2, x)
    return walk(fn, x, depth - 1)


print(walk(leaf, 1.0, 3))
"""
    assert check_source(source) == []


def test_a_helper_parameter_fed_a_tracer_is_traced_however_often_asked() -> None:
    """`static_values._passed_traced` once kept its in-progress mark, so a second question about the
    same parameter answered 'unknown' where the first had answered 'traced'."""
    import libcst as cst

    from jaxfix.transforms.semantics.analysis import Analysis
    from jaxfix.transforms.semantics.module import ModuleContext
    from jaxfix.transforms.semantics.static_values import Kind

    source = PROGRAM.format(first="grow", second="shrink").replace(
        "def choose(flag, on_true, on_false, x):\n    return lax.cond(flag, on_true, on_false, 3, x)",
        "def choose(flag, on_true, on_false, n, x):\n    return lax.cond(flag, on_true, on_false, n, x)",
    ).replace(
        "def apply(flag, x):\n    return choose(flag, grow, shrink, x)",
        "@jax.jit\ndef apply(flag, n, x):\n    return choose(flag, grow, shrink, n, x)",
    )
    analysis = Analysis(ModuleContext(source, cst.parse_module(source), Options()))
    choose = next(f for f in analysis.ctx.nodes_of(cst.FunctionDef) if f.name.value == "choose")
    n = next(p for p in choose.params.params if p.name.value == "n")
    verdicts = [analysis.staticness.parameter_verdict(n).kind for _ in range(2)]
    assert verdicts == [Kind.TRACED, Kind.TRACED]
