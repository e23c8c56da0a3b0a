"""The fast path (ast screen, then slicing) finds exactly what whole-module analysis finds."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from jaxfix.transforms import Options, check
from jaxfix.transforms.core.stdlib_ast import parse
from jaxfix.transforms.gate.slicing import slice_source

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = sorted((ROOT / "golden").glob("*/*/*.py")) + sorted((ROOT / "examples").glob("*.py"))


def as_tuples(result):
    return [(f.code, f.span, f.message, f.fix, f.notes) for f in result.findings]


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: "/".join(p.parts[-3:]))
def test_narrowed_analysis_equals_whole_module(path: Path) -> None:
    text = path.read_text()
    assert as_tuples(check(text, Options())) == as_tuples(check(text, Options(), narrow=False))


def test_check_does_not_read_unsafe_fixes() -> None:
    """`unsafe_fixes` chooses which fixes `fix_source` applies; the findings and their fixes (with
    their applicability) are the same either way, so the comparison above needs one setting."""
    for path in PROGRAMS:
        if path.name != "before.py" or "JAX1" not in str(path) and "unsafe" not in str(path):
            continue
        text = path.read_text()
        assert as_tuples(check(text, Options(unsafe_fixes=True))) == as_tuples(check(text, Options())), path


PADDED = '''\
import jax
from functools import partial

GLOBAL_N = 3


def unrelated(a):
    """Many lines that cannot matter."""
    return a + 1


class Holder:
    def method(self):
        return unrelated(2)


@partial(jax.jit, static_argnums=0)
def branch(n, x):
    return x * n


def bump():
    global GLOBAL_N
    GLOBAL_N = 4


def main(x):
    return jax.lax.cond(True, branch, branch, GLOBAL_N, x)
'''


def test_slice_keeps_lines_callers_and_global_writers() -> None:
    tree = parse(PADDED)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "cond")
    piece = slice_source(PADDED, tree, [call])
    kept = piece.text.splitlines()
    assert "def unrelated(): pass" in kept
    # A class keeps its header (what it is decides how jit treats an instance); its methods are stubs.
    assert "class Holder:" in kept and "    def method(): pass" in kept
    assert "    global GLOBAL_N" in kept  # a global writer can rebind what the rule reads
    assert "def branch(n, x):" in kept
    stubs = {"def unrelated(): pass", "    def method(): pass"}
    for number, line in zip(piece.lines, kept):
        if line not in stubs:
            assert PADDED.splitlines()[number - 1] == line
    # GLOBAL_N is rebound in bump(), so it is not a constant: the fix is unsafe either way.
    narrow, whole = check(PADDED), check(PADDED, narrow=False)
    assert as_tuples(narrow) == as_tuples(whole)
    assert narrow.findings[0].fix.applicability.value == "unsafe"


ATTRIBUTES = '''\
import jax
from functools import partial


def reshape(a, shape):
    """Named like the array method the seed's function calls."""
    return a


def caller_by_attribute(x):
    return x.reshape(2)


class Model:
    def helper(self, n):
        return n + 1

    def run(self, x):
        return jax.lax.cond(True, branch, branch, self.helper(3), x)


@partial(jax.jit, static_argnums=0)
def branch(n, x):
    return x.reshape(-1) * n
'''


def test_an_attribute_brings_in_methods_only() -> None:
    """``x.reshape`` is never the module's ``def reshape`` (the analyses resolve an attribute
    only to a method, through ``self``); ``self.helper`` is the method."""
    tree = parse(ATTRIBUTES)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "cond")
    kept = slice_source(ATTRIBUTES, tree, [call], [call]).text.splitlines()
    assert "def reshape(): pass" in kept and "def caller_by_attribute(): pass" in kept
    assert "    def helper(self, n):" in kept and "def branch(n, x):" in kept
    assert as_tuples(check(ATTRIBUTES)) == as_tuples(check(ATTRIBUTES, narrow=False))
    assert [f.code for f in check(ATTRIBUTES).findings] == ["JAX101"]


def test_screen_reads_newer_syntax_line_for_line() -> None:
    source = "def f[T: int](x: T) -> T:\n    return x\n\ntype Alias[K] = dict[K, int]\nclass C[T]:\n    pass\n"
    tree = parse(source)
    assert tree is not None
    assert [n.lineno for n in tree.body] == [1, 4, 5]


PADDING = '''def _unrelated_padding(a):
    b = a + 1
    c = b * 2
    return c


'''


def _padded(text: str) -> str:
    """The program with an unrelated helper before its first def, decorator or class: the
    slicer stubs the helper to one line, so every later line moves in the slice."""
    lines = text.splitlines(keepends=True)
    at = next((i for i, line in enumerate(lines) if line.startswith(("def ", "@", "class "))), len(lines))
    return "".join(lines[:at]) + PADDING + "".join(lines[at:])


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: "/".join(p.parts[-3:]))
def test_narrowed_analysis_equals_whole_module_when_lines_move(path: Path) -> None:
    """Edits computed on a slice whose lines are not the file's land where the whole-module
    analysis puts them (two rules once mixed the two numberings and broke the code)."""
    text = _padded(path.read_text())  # one setting: `check` never reads unsafe_fixes (pinned above)
    assert as_tuples(check(text, Options())) == as_tuples(check(text, Options(), narrow=False))


def test_a_stubbed_def_takes_its_trailing_comments_along() -> None:
    """netket's test_liouvillian.py ends with a def whose body ends in indented comments: a one-line
    stub left before them opened a block libcst did not give back as written (the file was then
    "left alone" with an error)."""
    import libcst as cst

    text = (
        "import jax\n\n\ndef f(x):\n    return x[x > 0].sum()\n\n\n"
        "def g():\n    y = 1\n    # TODO: fix this test\n        # assert y\n"
    )
    tree = parse(text)
    seed = next(n for n in ast.walk(tree) if isinstance(n, ast.Subscript))
    sliced = slice_source(text, tree, [seed])
    assert "def g(): pass" in sliced.text and "TODO" not in sliced.text
    assert cst.parse_module(sliced.text).code == sliced.text
