"""Suppression that interoperates with ruff: `# noqa`, JAX001 (unused suppression), and --add-noqa's writer."""

from __future__ import annotations

import ast

import pytest

from jaxfix.transforms import Options, check_source, fix_source
from jaxfix.transforms.core.suppression import add_directives, directives, suppressions

from .helpers import BRANCHES, call

CALL = call(3).rstrip("\n")  # one JAX101 finding, line 14


def codes(text: str, **options) -> list[str]:
    return [f"{f.code}:{f.line}" for f in check_source(text, Options(**options))]


@pytest.mark.parametrize(
    "comment",
    ["# noqa: JAX101", "# noqa:JAX101", "# NOQA: E501, JAX101", "# noqa: E501 JAX101", "# noqa", "# jaxfix: ignore[jax101]"],
)
def test_noqa_silences_as_jaxfix_ignore_does(comment: str) -> None:
    assert codes(BRANCHES + CALL + "  " + comment + "\n") == []


def test_noqa_for_other_tools_or_file_wide_forms_silence_nothing_of_ours() -> None:
    for comment in ("# noqa: E501", "# ruff: noqa", "# flake8: noqa", "# type: ignore"):
        assert codes(BRANCHES + CALL + "  " + comment + "\n") == ["JAX101:14"], comment
    assert directives(BRANCHES + CALL + "  # noqa: E501\n") == []  # not ours: never reported either
    assert suppressions('x = "# noqa"\n') == {}  # inside a string


def test_a_noqa_alone_on_its_line_covers_the_next_line_as_jaxfix_ignore_does() -> None:
    assert codes(BRANCHES + "# noqa: JAX101\n" + CALL + "\n") == []


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("x = 1  # jaxfix: ignore[JAX101]", "no `JAX101` finding"),
        ("x = 1  # noqa: JAX101", "no `JAX101` finding"),
        ("x = 1  # jaxfix: ignore[JAX999]", "`JAX999` matches no rule"),
        ("x = 1  # jaxfix: ignore[JAX1]", "`JAX1` matches no rule"),  # suppression takes whole codes
        ("x = 1  # jaxfix: ignore", "no finding"),
        ("x = 1  # jaxfix: ignore[]", "names no code"),
    ],
)
def test_a_directive_that_silences_nothing_is_jax001(line: str, message: str) -> None:
    (finding,) = check_source(line + "\n")
    assert finding.code == "JAX001" and message in finding.message and finding.line == 1


def test_used_bare_noqa_and_unjudged_codes_are_not_reported() -> None:
    assert codes("x = 1  # noqa\n") == []  # a bare noqa serves other linters
    assert codes("x = 1  # jaxfix: ignore[JAX101]\n", select=frozenset({"JAX0", "JAX2"})) == []  # JAX101 did not run
    assert codes("x = 1  # jaxfix: ignore[JAX101]\n", ignore=frozenset({"JAX101"})) == []
    assert codes("x = 1  # jaxfix: ignore\n", ignore=frozenset({"JAX404"})) == []  # not every rule ran
    assert codes("x = 1  # jaxfix: ignore[JAX101]\n", ignore=frozenset({"JAX001"})) == []
    assert codes("x = 1  # jaxfix: ignore[JAX101, JAX001]\n") == []  # it silences its own report


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("x = 1  # noqa: JAX101\n", "x = 1\n"),
        ("x = 1  # noqa: E501, JAX101\n", "x = 1  # noqa: E501\n"),
        ("x = 1  # jaxfix: ignore[JAX101] flaky on CPU\n", "x = 1  # flaky on CPU\n"),
        ("x = 1  # noqa: E501  # jaxfix: ignore[JAX404]\n", "x = 1  # noqa: E501\n"),
        ("# jaxfix: ignore[JAX101]\nx = 1\n", "x = 1\n"),
        ("x = 1\r\n# jaxfix: ignore\r\ny = 2\r\n", "x = 1\r\ny = 2\r\n"),
    ],
)
def test_the_fix_removes_the_comment_or_the_unused_codes(before: str, after: str) -> None:
    assert fix_source(before).text == after


def test_the_fix_keeps_codes_that_silence_something() -> None:
    fixed = fix_source(BRANCHES + CALL + "  # jaxfix: ignore[JAX101, JAX999]\n").text
    assert fixed.endswith(CALL + "  # jaxfix: ignore[JAX101]\n")
    assert codes(fixed) == []


def test_a_golden_fix_and_the_suppression_it_made_useless() -> None:
    """A JAX101 fix that removes the finding a directive silenced: the next pass drops the directive."""
    text = BRANCHES + CALL + "  # jaxfix: ignore[JAX201]\n"
    fixed = fix_source(text).text
    assert "jaxfix: ignore" not in fixed and "partial(run_true, 3)" in fixed


def compiles(text: str) -> bool:
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


def test_add_directives_puts_comments_where_they_silence_the_finding() -> None:
    text = BRANCHES + CALL + "\n" + CALL.replace("y3", "y5") + "  # jaxfix: ignore[JAX201]\n"
    marked, refused = add_directives(text, [(14, "JAX101"), (15, "JAX101")])
    assert refused == []
    lines = marked.splitlines()
    assert lines[13] == CALL + "  # jaxfix: ignore[JAX101]"
    assert lines[14].endswith("# jaxfix: ignore[JAX101, JAX201]")  # merged into the existing directive
    assert codes(marked) == ["JAX001:15"]  # JAX101 silenced; the JAX201 the author wrote still silences nothing


def test_add_directives_goes_above_a_line_whose_end_cannot_hold_a_comment() -> None:
    text = 'x = f(1, """\nabc""")\ny = 1 + \\\n    2\ns = """a\nb""" + \\\n    c\n'
    marked, refused = add_directives(text, [(1, "JAX101"), (3, "JAX101"), (6, "JAX101")])
    assert marked.splitlines()[:5] == [
        "# jaxfix: ignore[JAX101]", 'x = f(1, """', 'abc""")', "# jaxfix: ignore[JAX101]", "y = 1 + \\"
    ]
    assert refused == [6]  # starts inside a string and ends after a backslash: no place for a comment
    assert compiles(marked)
    table = suppressions(marked)
    assert table[2] == table[5] == frozenset({"JAX101"})  # the lines that were 1 and 3
