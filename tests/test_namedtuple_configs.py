"""NamedTuple configs: a NamedTuple has no static fields, so jit traces each one; a count read from
one makes the whole tuple static (JAX301) when every call passes one of hashable values, and a loop
whose carry changes shape is never turned into a fori_loop. Each verdict on both paths, the
rewritten programs run."""

from __future__ import annotations

import pytest

from jaxfix.transforms import Options, check, fix_source

from .helpers import run_in_process

HEAD = '''from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Config(NamedTuple):
    scale: float
    steps: int = 3


'''


def jax301(src: str):
    both = [[(f.line, bool(f.fix)) for f in check(src, Options(), narrow=n).findings if f.code == "JAX301"] for n in (True, False)]
    assert both[0] == both[1], "the fast path and the whole analysis disagree"
    return [f for f in check(src, Options(), narrow=False).findings if f.code == "JAX301"]


LOOP = '''@jax.jit
def run(x, config{annotation}):
    for _ in range(config.steps):
        x = x * config.scale
    return x


RESULT = run(jnp.ones(2), {built})
'''


@pytest.mark.parametrize(("annotation", "built"), [("", "Config(2.0)"), (": Config", "Config(2.0, steps=3)")])
def test_a_count_in_a_namedtuple_makes_the_tuple_static(annotation: str, built: str) -> None:
    src = HEAD + LOOP.format(annotation=annotation, built=built)
    (finding,) = jax301(src)
    assert finding.fix and "a NamedTuple of hashable Python values" in finding.message
    fixed = fix_source(src, Options()).text
    assert 'static_argnames=("config",)' in fixed
    assert run_in_process(fixed)["RESULT"].tolist() == [8.0, 8.0]


def test_a_namedtuple_holding_an_array_is_not_made_static() -> None:
    src = HEAD + LOOP.format(annotation="", built="Config(jnp.asarray(2.0))")
    (finding,) = jax301(src)
    fixed = fix_source(src, Options()).text
    assert 'static_argnames=("config",)' not in fixed
    if fixed != src:  # the fori_loop form, with the count traced
        assert run_in_process(fixed)["RESULT"].tolist() == [8.0, 8.0]


def test_a_carry_that_grows_is_not_a_fori_loop() -> None:
    src = HEAD + '''@jax.jit
def grow(x, n):
    for _ in range(n):
        x = jnp.concatenate([x, x[-1:] + 1])
    return x


RESULT = grow(jnp.zeros(1), jnp.asarray(3))
'''
    (finding,) = jax301(src)
    assert finding.fix is None and "may change a carried value's shape" in finding.message


def test_a_static_namedtuple_gets_nothing() -> None:
    src = HEAD + LOOP.format(annotation="", built="Config(2.0)").replace("@jax.jit", '@partial(jax.jit, static_argnames=("config",))')
    assert jax301(src) == []
    assert run_in_process(src)["RESULT"].tolist() == [8.0, 8.0]


def test_a_carry_that_is_sliced_is_not_a_fori_loop() -> None:
    src = HEAD + '''@jax.jit
def shrink(x, n):
    for _ in range(n):
        x = x[1:] * 2
    return x


RESULT = shrink(jnp.ones(5), jnp.asarray(2))
'''
    (finding,) = jax301(src)
    assert finding.fix is None and "the slice `x[1:]`" in finding.message


def jax302(src: str):
    both = [[(f.line, bool(f.fix)) for f in check(src, Options(), narrow=n).findings if f.code == "JAX302"] for n in (True, False)]
    assert both[0] == both[1], "the fast path and the whole analysis disagree"
    return [f for f in check(src, Options(), narrow=False).findings if f.code == "JAX302"]


FLAG = '''class Flags(NamedTuple):
    scale: float
    training: bool = False


@jax.jit
def step(x, flags):
    if flags.training:
        return x * flags.scale
    return {other}


RESULT = step(jnp.ones(2), {built})
'''


def test_a_flag_in_a_namedtuple_makes_the_tuple_static() -> None:
    src = HEAD + FLAG.format(other="x", built="Flags(2.0, training=True)")
    (finding,) = jax302(src)
    assert finding.fix
    fixed = fix_source(src, Options()).text
    assert '@partial(jax.jit, static_argnames=("flags",))' in fixed
    assert run_in_process(fixed)["RESULT"].tolist() == [2.0, 2.0]


@pytest.mark.parametrize(
    ("other", "built", "fixed"),
    [
        ("x", "Flags(jnp.asarray(2.0), training=True)", False),  # an array field: the tuple cannot hash
        ("x * flags.scale", "Flags(2.0)", True),
    ],
)
def test_a_namedtuple_flag_is_fixed_only_when_the_tuple_hashes(other: str, built: str, fixed: bool) -> None:
    """Made static only when the tuple hashes; otherwise the `if` that only chooses a value is
    selected with `jnp.where` (unsafe), no jit touched."""
    findings = jax302(HEAD + FLAG.format(other=other, built=built))
    made_static = [bool(f.fix) and any("static_argnames" in e.content for e in f.fix.edits) for f in findings]
    assert made_static == [fixed]


def test_a_namedtuple_only_computed_with_gets_nothing() -> None:
    src = HEAD + '''@jax.jit
def run(x, config):
    return x * config.scale + config.steps


RESULT = run(jnp.ones(2), Config(2.0))
'''
    assert jax302(src) == [] and jax301(src) == []
    assert run_in_process(src)["RESULT"].tolist() == [5.0, 5.0]
