"""The collector pauses: around a parse, and around each file's analysis; and what a file's
screen builds is freed by reference counting alone (no cycle keeps a tree alive)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from jaxfix.transforms import Options, check
from jaxfix.transforms.core import stdlib_ast
from jaxfix.transforms.core.gcpause import collector_paused, one_file_at_a_time

ROOT = Path(__file__).resolve().parent.parent
#: Programs whose screen builds the tracer (`screen_tracing.TracedParams`): loops and jits.
PROGRAMS = sorted((ROOT / "golden" / "JAX301").glob("*/before.py"))[:5]


@pytest.mark.parametrize("pause", [collector_paused, one_file_at_a_time])
def test_the_collector_is_back_on_afterwards_even_after_an_error(pause) -> None:
    seen = []

    @pause
    def analyse(fail: bool) -> None:
        seen.append(gc.isenabled())
        if fail:
            raise ValueError("bad input")

    assert gc.isenabled()
    analyse(False)
    with pytest.raises(ValueError):
        analyse(True)
    assert seen == [False, False] and gc.isenabled()


def test_a_pause_inside_a_pause_leaves_the_collector_off() -> None:
    @one_file_at_a_time
    def outer() -> bool:
        return inner()

    @collector_paused
    def inner() -> bool:
        return gc.isenabled()

    assert outer() is False and gc.isenabled()


def test_one_file_at_a_time_frees_the_cycles_the_file_left() -> None:
    class Node:
        pass

    @one_file_at_a_time
    def analyse() -> weakref.ref:
        a, b = Node(), Node()
        a.other, b.other = b, a  # a cycle only the collector can free
        return weakref.ref(a)

    assert analyse()() is None


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.parent.name)
def test_the_screen_tree_is_freed_without_the_collector(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`TracedParams` is memoized on its `Facts` and holds it weakly: with a strong reference
    the pair was a cycle that kept the module's whole ast tree alive until a collection."""
    trees: list[weakref.ref] = []
    parse = stdlib_ast.parse

    def recording(text: str):
        tree = parse(text)
        trees.append(weakref.ref(tree))
        return tree

    monkeypatch.setattr(stdlib_ast, "parse", recording)
    gc.disable()
    try:
        check(path.read_text(), Options())
        assert trees and all(tree() is None for tree in trees)
    finally:
        gc.enable()
