"""The language server's text work, without a server: LSP positions and the suppression comment."""

from __future__ import annotations

import pytest

from jaxfix.codemods.server.positions import UTF8, UTF16, UTF32, Lines
from jaxfix.codemods.server.protocol import changed_part
from jaxfix.codemods.server.suppress import suppression_edit
from jaxfix.transforms.core.suppression import is_suppressed, suppressions
from jaxfix.transforms.core.textedit import apply_edits


@pytest.mark.parametrize("encoding, column", [(UTF16, 4), (UTF8, 6), (UTF32, 3)])
def test_columns_count_the_agreed_code_units(encoding: str, column: int) -> None:
    text = "x = 1\n'🙂'+y\n"
    lines = Lines(text, encoding)
    offset = text.index("+")
    assert lines.position(offset) == (1, column)
    assert lines.offset(1, column) == offset
    assert lines.line_column(2, 3) == (1, column)


def test_lines_break_where_the_protocol_breaks_them() -> None:
    """\\r\\n, \\r and \\n end lines; a form feed or U+2028 inside a line does not."""
    text = "a\r\nb\rc\x0cd\u2028e\nf"
    lines = Lines(text, UTF16)
    assert [lines.position(text.index(ch))[0] for ch in "abcdef"] == [0, 1, 2, 2, 2, 3]
    assert lines.offset(9, 0) == len(text)


CASES = {
    "end of line": ("x = f(1)\n", 1, "x = f(1)  # jaxfix: ignore[JAX101]\n"),
    "joins a directive": ("x = f(1)  # jaxfix: ignore[JAX201]\n", 1, "x = f(1)  # jaxfix: ignore[JAX201, JAX101]\n"),
    "inside a multi-line string: above": ('s = """a\nb""" + g(2)\n', 1, '# jaxfix: ignore[JAX101]\ns = """a\nb""" + g(2)\n'),
    "after a backslash: above, indented": (
        "def f():\n    return g(\\\n  2)\n",
        2,
        "def f():\n    # jaxfix: ignore[JAX101]\n    return g(\\\n  2)\n",
    ),
    "crlf kept": ("x = 1\r\ny = f(2)\r\n", 2, "x = 1\r\ny = f(2)  # jaxfix: ignore[JAX101]\r\n"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_suppression_lands_where_it_silences_the_line(name: str) -> None:
    text, line, expected = CASES[name]
    edit = suppression_edit(text, line, "JAX101")
    assert edit is not None
    assert apply_edits(text, [edit]) == expected


def test_no_suppression_is_offered_where_none_can_be_proved() -> None:
    """The finding's line is the inside of a string: neither the end of the line nor a line above is code."""
    text = 's = """\nline two\n"""\n'
    assert suppression_edit(text, 2, "JAX101") is None


def test_a_proved_suppression_silences_exactly_that_line() -> None:
    text = "a = f(1)\nb = f(2)\n"
    edited = apply_edits(text, [suppression_edit(text, 2, "JAX201")])  # type: ignore[list-item]
    table = suppressions(edited)
    assert is_suppressed(table, 2, "JAX201") and not is_suppressed(table, 1, "JAX201")
    assert not is_suppressed(table, 2, "JAX101")


@pytest.mark.parametrize("old, new", [("abcdef", "abXYef"), ("abc", "abc"), ("", "x"), ("aaa", "aa"), ("xay", "xy")])
def test_fix_all_replaces_only_what_changed(old: str, new: str) -> None:
    edit = changed_part(old, new)
    assert apply_edits(old, [edit]) == new
    assert edit.end - edit.start <= len(old) - len(_common(old, new))


def _common(a: str, b: str) -> str:
    prefix = 0
    while prefix < min(len(a), len(b)) and a[prefix] == b[prefix]:
        prefix += 1
    return a[:prefix]
