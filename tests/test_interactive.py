"""`jaxfix diff --interactive`, driven through a real pseudo-terminal (pexpect), not mocked input."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect
import pytest

from jaxfix.codemods import engine
from jaxfix.codemods.interactive import Answer, Offer, choose
from jaxfix.transforms import (
    Applicability,
    Edit,
    Finding,
    Fix,
    Options,
    Position,
    Span,
    fix_source,
)

from .helpers import BRANCHES, GOLDEN, call, env, jaxfix

PROMPT = re.escape("Apply this fix? [y]es, [n]o, [a]ll the rest, [q]uit: ")
TIMEOUT = 60


def spawn(cwd: Path, *args: str, term: str = "dumb") -> pexpect.spawn:
    environment = env(TERM=term)
    environment.pop("NO_COLOR", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "jaxfix", "diff", "--interactive", "--allow-no-vcs", *args],
        cwd=str(cwd),
        env=environment,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 200),
    )
    return child


def finish(child: pexpect.spawn) -> tuple[str, int]:
    child.expect(pexpect.EOF)
    child.close()
    return child.before, child.exitstatus


@pytest.fixture
def three_fixes(tmp_path: Path) -> Path:
    """a.py: two fixes on lines 14 and 15; b.py: one fix that also adds an import."""
    (tmp_path / "a.py").write_text(BRANCHES + call(3) + call(4))
    (tmp_path / "b.py").write_text((GOLDEN / "JAX101" / "import_added_jit_factory" / "before.py").read_text())
    return tmp_path


def test_yes_no_yes_writes_only_the_accepted_fixes(three_fixes: Path) -> None:
    a_before = (three_fixes / "a.py").read_text()
    child = spawn(three_fixes, "a.py", "b.py")
    child.expect(r"\(1/3\) a\.py:14:\d+ JAX101 static-operand-to-branch \(safe fix\)")
    child.expect("passes `3` as an operand")
    child.expect(re.escape("+y3 = jax.lax.cond(True, partial(run_true, 3), partial(run_false, 3), 1.0)"))
    child.expect(PROMPT)
    child.sendline("y")
    child.expect(r"\(2/3\) a\.py:15")
    child.expect(PROMPT)
    child.sendline("n")
    child.expect(r"\(3/3\) b\.py:18")
    child.expect(re.escape("+from functools import partial"))
    child.expect(PROMPT)
    child.sendline("yes")
    output, status = finish(child)
    assert "Applied 2 fixes in 2 files; 1 finding left." in output
    assert status == 1  # the declined fix is still a finding
    a_after = (three_fixes / "a.py").read_text()
    assert a_after == a_before.replace(
        "jax.lax.cond(True, run_true, run_false, 3, 1.0)", "jax.lax.cond(True, partial(run_true, 3), partial(run_false, 3), 1.0)"
    )
    b_expected = (GOLDEN / "JAX101" / "import_added_jit_factory" / "after.py").read_text()
    assert (three_fixes / "b.py").read_text() == b_expected


def test_one_key_answers_without_enter(three_fixes: Path) -> None:
    """y, n and q each answer at once; an Enter typed after a letter out of habit answers nothing."""
    child = spawn(three_fixes, "a.py", "b.py")
    child.expect(PROMPT)
    child.send("y")  # no Enter
    child.expect(r"\(2/3\) a\.py:15", timeout=20)
    child.expect(PROMPT)
    child.send("\r")  # ignored: the question is still open
    child.send("N")
    child.expect(r"\(3/3\) b\.py:18", timeout=20)
    child.expect(PROMPT)
    child.send("q")
    output, status = finish(child)
    assert "Applied 1 fix in 1 file; 2 findings left." in output and status == 1
    assert "partial(run_true, 3)" in (three_fixes / "a.py").read_text()
    assert "partial(run_true, 4)" not in (three_fixes / "a.py").read_text()


def test_all_accepts_the_rest_without_asking(three_fixes: Path) -> None:
    child = spawn(three_fixes, "a.py", "b.py")
    child.expect(PROMPT)
    child.sendline("n")
    child.expect(PROMPT)
    child.sendline("a")
    output, status = finish(child)
    assert output.count("Apply this fix?") == 0  # nothing asked after the answer "a"
    assert "Applied 2 fixes in 2 files; 1 finding left." in output and status == 1
    assert "partial(run_true, 4)" in (three_fixes / "a.py").read_text()
    assert "partial(run_true, 3)" not in (three_fixes / "a.py").read_text()


def test_quit_writes_what_was_accepted_and_nothing_else(three_fixes: Path) -> None:
    b_before = (three_fixes / "b.py").read_text()
    child = spawn(three_fixes, "a.py", "b.py")
    child.expect(PROMPT)
    child.sendline("y")
    child.expect(PROMPT)
    child.sendline("q")
    output, status = finish(child)
    assert "Applied 1 fix in 1 file; 2 findings left." in output and status == 1
    assert "partial(run_true, 3)" in (three_fixes / "a.py").read_text()
    assert "partial(run_true, 4)" not in (three_fixes / "a.py").read_text()
    assert (three_fixes / "b.py").read_text() == b_before


def test_accepting_everything_exits_0_and_matches_migrate(three_fixes: Path, tmp_path_factory) -> None:
    copy = tmp_path_factory.mktemp("copy")
    for name in ("a.py", "b.py"):
        (copy / name).write_text((three_fixes / name).read_text())
    child = spawn(three_fixes, ".")
    for _ in range(3):
        child.expect(PROMPT)
        child.sendline("y")
    output, status = finish(child)
    assert status == 0, output
    assert jaxfix("migrate", "--allow-no-vcs", ".", cwd=copy).returncode == 0
    for name in ("a.py", "b.py"):
        assert (three_fixes / name).read_text() == (copy / name).read_text()


def test_unknown_answer_asks_again_and_ctrl_c_writes_nothing(three_fixes: Path) -> None:
    before = {p.name: p.read_text() for p in three_fixes.iterdir()}
    child = spawn(three_fixes, "a.py", "b.py")
    child.expect(PROMPT)
    child.send("m")
    child.expect("y: apply this fix; n: skip it; a: apply it and all the rest; q: stop here")
    child.expect(PROMPT)
    child.sendline("y")
    child.expect(PROMPT)
    child.sendintr()
    output, status = finish(child)
    assert "interrupted: nothing written" in output and status == 130
    assert {p.name: p.read_text() for p in three_fixes.iterdir()} == before


def test_end_of_input_is_quit(three_fixes: Path) -> None:
    child = spawn(three_fixes, "a.py")
    child.expect(PROMPT)
    child.sendline("y")
    child.expect(PROMPT)
    child.sendeof()
    output, status = finish(child)
    assert "Applied 1 fix in 1 file" in output and status == 1


def test_hunk_is_syntax_highlighted_on_a_colour_terminal(three_fixes: Path) -> None:
    child = spawn(three_fixes, "a.py", term="xterm-256color")
    child.expect(PROMPT)
    shown = child.before
    child.sendline("q")
    finish(child)
    assert "\x1b[" in shown  # ANSI colour codes around the hunk
    plain = re.sub(r"\x1b\[[0-9;]*m", "", shown)
    assert "-y3 = jax.lax.cond(True, run_true, run_false, 3, 1.0)" in plain


def test_unsafe_fixes_are_offered_only_with_the_flag(tmp_path: Path) -> None:
    source = (GOLDEN / "JAX101" / "report_unsafe_by_default" / "before.py").read_text()
    (tmp_path / "u.py").write_text(source)
    child = spawn(tmp_path, "u.py")
    output, status = finish(child)
    assert "Apply this fix?" not in output and status == 1
    assert (tmp_path / "u.py").read_text() == source
    child = spawn(tmp_path, "--unsafe-fixes", "u.py")
    child.expect(r"\(unsafe fix\)")
    child.expect(PROMPT)
    child.sendline("y")
    output, status = finish(child)
    assert status == 0
    assert (tmp_path / "u.py").read_text() == fix_source(source, Options(unsafe_fixes=True)).text


def test_without_a_terminal_it_refuses(three_fixes: Path) -> None:
    result = jaxfix("diff", "--interactive", "a.py", cwd=three_fixes, stdin="y\n")
    assert result.returncode == 2 and "needs a terminal" in result.stderr


def _offer(path: Path, *edits: Edit) -> Offer:
    finding = Finding("JAX101", "m", Span(Position(1, 0), Position(1, 1)), Fix(Applicability.SAFE, edits))
    return Offer(engine.FileResult(path, "abcdefghij", "abcdefghij"), finding, Options())


def test_a_fix_overlapping_an_accepted_one_is_not_offered(tmp_path: Path) -> None:
    shared_import = Edit(0, 0, "import x\n")
    first = _offer(tmp_path / "f.py", shared_import, Edit(2, 5, "X"))
    overlapping = _offer(tmp_path / "f.py", Edit(4, 6, "Y"))
    same_import = _offer(tmp_path / "f.py", shared_import, Edit(7, 8, "Z"))
    elsewhere = _offer(tmp_path / "g.py", Edit(4, 6, "Y"))
    asked: list[int] = []

    def ask(offer: Offer, number: int, total: int) -> Answer:
        asked.append(number)
        return Answer.YES

    choices = choose([first, overlapping, same_import, elsewhere], ask)
    assert asked == [1, 3, 4]
    assert choices.accepted == [first, same_import, elsewhere] and choices.overlapping == 1
    # A declined fix takes nothing, so a later overlapping one is still offered.
    asked.clear()
    answers = iter([Answer.NO, Answer.YES])
    choices = choose([first, overlapping], lambda o, n, t: (asked.append(n), next(answers))[1])
    assert asked == [1, 2] and choices.accepted == [overlapping] and choices.declined == 1
