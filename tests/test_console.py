"""The CLI's console (codemods/console.py) prints what rich's Console prints, and asks rich only when it must."""

from __future__ import annotations

import io
import sys

import pytest
from rich.console import Console as RichConsole

from jaxfix.codemods.console import Console

LINES = [
    "examples/seed.py:13:30: JAX101 [*] `jax.lax.cond` passes `N` as an operand to static parameter `N`",
    "Found 1 finding (1 fixable with `jaxfix migrate`).",
    "error: pyproject.toml: unknown key `unsafe_fixes` in [tool.jaxfix] (did you mean `unsafe-fixes`?)",
    "    note: x[:, None] and d[:n] keep their colons",
    "a message with a :smile: code",
    "file.py:100:5: and :1234: stay numbers",
    "a tab\there",
    "a carriage\rreturn and a bell\x07",
    "unicode: é ✓ 🙂",
    "",
]


@pytest.mark.parametrize("line", LINES)
@pytest.mark.parametrize("stderr", [False, True])
def test_a_line_prints_as_rich_prints_it(line: str, stderr: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    ours, theirs = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stderr" if stderr else "stdout", theirs)
    RichConsole(stderr=stderr, highlight=False, soft_wrap=True, emoji=False).print(line, markup=False)
    monkeypatch.setattr(sys, "stderr" if stderr else "stdout", ours)
    Console(stderr=stderr).print(line, markup=False)
    assert ours.getvalue() == theirs.getvalue()


def test_plain_lines_into_a_pipe_need_no_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    console = Console()
    console.print(LINES[0], markup=False)
    assert console.is_terminal is False
    assert console._rich is None


@pytest.mark.parametrize("variable, value, terminal", [("FORCE_COLOR", "1", True), ("TTY_COMPATIBLE", "1", True), ("FORCE_COLOR", "", False)])
def test_whatever_rich_would_call_a_terminal_is_one(monkeypatch: pytest.MonkeyPatch, variable: str, value: str, terminal: bool) -> None:
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv(variable, value)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert Console().is_terminal is RichConsole(highlight=False, soft_wrap=True).is_terminal is terminal


def test_a_finding_on_line_100_prints_its_line_number(tmp_path) -> None:
    """rich's emoji codes once printed `file.py💯25:` for it (":100:" is an emoji there)."""
    from .helpers import BRANCHES, call, jaxfix

    (tmp_path / "line100.py").write_text(BRANCHES + "\n" * (99 - BRANCHES.count("\n")) + call(3))
    result = jaxfix("check", "--no-cache", "line100.py", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("line100.py:100:"), result.stdout
