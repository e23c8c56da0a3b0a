"""The guard every fix passes: the fixed module compiles and reads no name that nothing binds."""

from __future__ import annotations

from jaxfix.transforms import Applicability, Edit, Finding, Fix, Position, Span, _guarded
from jaxfix.transforms.core.fix_guard import builtins_of, new_unbound_reads, unbound_reads

BUILTINS = builtins_of((3, 11))


def test_every_way_a_name_is_bound_counts():
    text = """
import jax
from functools import partial as p
X = 1
def f(a, *args, b=2, **kw):
    def g():
        nonlocal_read = a + X
        return nonlocal_read
    for i in range(3):
        pass
    with open("x") as handle:
        pass
    try:
        pass
    except ValueError as error:
        pass
    if (walrus := 3):
        pass
    return [y for y in args], {k: v for k, v in kw.items()}, lambda z: z + b, i, handle, error, walrus
class C:
    attr = X
    def m(self):
        return C, self.attr, __name__, len
def setter():
    global LATE
    LATE = 1
def reader():
    return LATE, jax, p
"""
    assert unbound_reads(text, BUILTINS) == {}


def test_a_name_nothing_binds_is_counted_per_scope():
    text = "def f():\n    return k\nTABLE = (k,)\n"
    assert unbound_reads(text, BUILTINS) == {(("function:f",), "k"): 1, ((), "k"): 1}


def test_a_star_import_makes_every_name_possibly_bound():
    assert unbound_reads("from os import *\nprint(k)\n", BUILTINS) == {}


def test_only_new_unbound_reads_count():
    before = unbound_reads("def f():\n    return k\n", BUILTINS)
    assert new_unbound_reads(before, "def f():\n    return k\n", BUILTINS) == []
    assert new_unbound_reads(before, "def f():\n    return k\nX = (k, m)\n", BUILTINS) == ["k", "m"]
    assert new_unbound_reads(before, "def f(:\n", BUILTINS) is None


def test_the_target_versions_builtins():
    assert new_unbound_reads(unbound_reads("", BUILTINS), "X = frozendict()\n", BUILTINS) == ["frozendict"]
    newer = builtins_of((3, 15))
    assert new_unbound_reads(unbound_reads("", newer), "X = frozendict()\n", newer) == []


def _finding(text: str, old: str, new: str) -> Finding:
    start = text.index(old)
    fix = Fix(Applicability.SAFE, (Edit(start, start + len(old), new),), "")
    return Finding("JAX101", "message", Span(Position(1, 0), Position(1, 1)), fix)


def test_a_fix_that_reads_an_unbound_name_becomes_a_report():
    """Issue 17.1's broken rewrite: the loop variable `k` written into the module-level table."""
    text = "TABLE = (poly, offset)\ndef run(x):\n    for k in (2, 3):\n        f(TABLE, x, k)\n"
    broken = _finding(text, "(poly, offset)", "(partial(poly, k=k), partial(offset, k=k))")
    (reported,) = _guarded(text, [broken], BUILTINS)
    assert reported.fix is None
    assert reported.message.endswith("not rewritten: the rewrite would read `k`, `partial` where no such name is bound")
    good = _finding(text, "f(TABLE, x, k)", "f([b for b in TABLE], x, k)")
    assert _guarded(text, [good], BUILTINS) == [good]


def test_a_fix_that_breaks_the_syntax_becomes_a_report():
    text = "x = f(1)\n"
    (reported,) = _guarded(text, [_finding(text, "f(1)", "f(1")], BUILTINS)
    assert reported.fix is None and "would not compile" in reported.message
