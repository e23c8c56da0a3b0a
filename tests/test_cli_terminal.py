"""What the CLI shows people on a terminal, and keeps out of pipes (issues 18.5, 18.6).

Terminals are real pseudo-terminals: pexpect for the whole session, or a
pty on stderr alone with stdout piped, as pre-commit and CI logs see it.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import threading
from importlib import metadata
from pathlib import Path

import pexpect
import pytest

from jaxfix.codemods import cli
from jaxfix.transforms import RULES

from .helpers import BRANCHES, call, env, jaxfix

TABLE = re.compile(r"[┏┃━│┡╇]")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def run_with_stderr_on_a_terminal(*args: str, cwd: Path, columns: int = 120) -> tuple[str, str, int]:
    """Run jaxfix with stdout piped and stderr a terminal; (stdout, what the terminal showed, exit code)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    shown: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: every copy of the terminal's other end is closed
                return
            if not chunk:
                return
            shown.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "jaxfix", *args],
            cwd=cwd,
            env=env(TERM="xterm", COLUMNS=str(columns)),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=slave,
        )
        os.close(slave)
        out, _ = process.communicate(timeout=300)
        reader.join(timeout=30)
    finally:
        os.close(master)
    return out.decode(), ANSI.sub("", b"".join(shown).decode("utf-8", "replace")), process.returncode


def spawn(*args: str, cwd: Path, columns: int = 80) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "jaxfix", *args],
        cwd=str(cwd),
        env=env(TERM="xterm", COLUMNS=str(columns)),
        encoding="utf-8",
        timeout=120,
        dimensions=(50, columns),
    )


def session(*args: str, cwd: Path, columns: int = 80) -> tuple[str, int]:
    child = spawn(*args, cwd=cwd, columns=columns)
    child.expect(pexpect.EOF)
    child.close()
    return ANSI.sub("", child.before), child.exitstatus


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """Two files with fixes (more than one file: the progress bar's path too) and one with none."""
    (tmp_path / "a.py").write_text(BRANCHES + call(3) + call(4))
    (tmp_path / "b.py").write_text(BRANCHES + call(5))
    (tmp_path / "clean.py").write_text("x = 1\n")
    return tmp_path


# -- 18.5: stdout is data; tables go to stderr, and only on a terminal ---------------------------


def test_migrate_piped_prints_no_tables_anywhere(project: Path) -> None:
    result = jaxfix("migrate", "--allow-dirty", "--allow-no-vcs", ".", cwd=project)
    assert result.returncode == 0, result.stderr
    assert not TABLE.search(result.stdout) and not TABLE.search(result.stderr)
    assert "Fixed 3 findings in 2 files." in result.stdout


def test_migrate_shows_its_tables_on_the_terminal_of_stderr_only(project: Path) -> None:
    out, shown, status = run_with_stderr_on_a_terminal("migrate", "--allow-dirty", "--allow-no-vcs", ".", cwd=project)
    assert status == 0
    assert not TABLE.search(out) and "Fixed 3 findings in 2 files." in out
    assert TABLE.search(shown) and "left for a person" in shown and "fixed" in shown


def test_check_shows_findings_by_rule_without_a_fixed_column(project: Path) -> None:
    out, shown, status = run_with_stderr_on_a_terminal("check", ".", cwd=project)
    assert status == 1
    assert "a.py:14:" in out and not TABLE.search(out)
    rule_table = shown[shown.index("rule") :]
    header = rule_table.splitlines()[0]
    assert "findings" in header and "fixed" not in header
    assert re.search(r"JAX101\s*│\s*3\s*│", rule_table)
    piped = jaxfix("check", ".", cwd=project)
    assert not TABLE.search(piped.stdout + piped.stderr)


# -- 18.6: --version, completion, help, rules, broken pipes, explain -----------------------------


def test_version(tmp_path: Path) -> None:
    result = jaxfix("--version", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout == f"jaxfix {metadata.version('jaxfix')}\n"


def test_shell_completion(tmp_path: Path) -> None:
    assert "--install-completion" in jaxfix("--help", cwd=tmp_path).stdout
    completed = jaxfix(cwd=tmp_path, _JAXFIX_COMPLETE="complete_bash", COMP_WORDS="jaxfix ex", COMP_CWORD="1")
    assert completed.stdout.split() == ["explain"]


@pytest.mark.parametrize("command", ["check", "diff", "migrate", "review"])
def test_help_fits_80_columns_without_cutting_option_names(tmp_path: Path, command: str) -> None:
    shown, status = session(command, "--help", cwd=tmp_path, columns=80)
    assert status == 0
    assert "--unsafe-fixes / --no-unsafe-fixes" in shown
    assert "…" not in shown and "<bool>" not in shown
    assert all(len(line) <= 80 for line in shown.splitlines()), max(shown.splitlines(), key=len)
    assert f"Usage: jaxfix {command} " in shown


def test_rules_on_a_narrow_terminal_shows_every_code_and_name_whole(tmp_path: Path) -> None:
    shown, status = session("rules", cwd=tmp_path, columns=80)
    assert status == 0
    for code, rule in RULES.items():
        assert re.search(rf"{code}\s*│\s*{re.escape(rule.name)}\s*│", shown), rule.name
    assert "…" not in shown


def test_rules_into_a_closed_pipe_exits_0_quietly(tmp_path: Path) -> None:
    """`jaxfix rules | true`: the reader is gone before jaxfix writes."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "jaxfix", "rules"],
            cwd=tmp_path,
            env=env(),
            stdout=writer,
            stderr=subprocess.PIPE,
            timeout=120,
        )
    finally:
        os.close(writer)
    assert done.returncode == 0 and done.stderr == b""


def test_explain_renders_its_restructuredtext(tmp_path: Path) -> None:
    piped = jaxfix("explain", "JAX101", cwd=tmp_path).stdout
    shown, status = session("explain", "JAX101", cwd=tmp_path, columns=120)
    assert status == 0
    for text in (piped, shown):
        assert "``" not in text and not re.search(r"::\s*$", text, re.MULTILINE)
        assert "hash the tracer:\n" in text.replace("\r\n", "\n")
        # The literal block keeps its indentation, and the quoted error its text.
        assert "\n    ValueError: Non-hashable static arguments are not supported. An error\n" in text.replace(
            "\r\n", "\n"
        )
    assert "`lax.cond`, `lax.switch`" in piped  # piped: code keeps one backquote each side
    assert "lax.cond, lax.switch" in shown  # on a terminal: styled instead
    # A literal that runs over a line break is one literal.
    jax402 = jaxfix("explain", "JAX402", cwd=tmp_path).stdout
    assert "`TypeError: Shapes must be 1D sequences\nof concrete values of integer type`" in jax402


def test_a_crash_exits_2_not_1(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Exit 1 means findings, which CI may accept (`fail-on-findings: false`); a crash must not look like one."""

    def crash() -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(cli, "_print_rules", crash)
    monkeypatch.setattr(sys, "argv", ["jaxfix", "rules"])
    with pytest.raises(SystemExit) as exited:
        cli.main()
    assert exited.value.code == 2
    assert "RuntimeError: a bug" in capsys.readouterr().err


def test_top_level_help_lists_every_command_uncut(tmp_path: Path) -> None:
    shown, status = session("--help", cwd=tmp_path, columns=80)
    assert status == 0 and "--version" in shown
    commands = shown[shown.index("Commands:") :].splitlines()[1:]
    assert [line.split()[0] for line in commands if line.strip()] == [
        "check",
        "diff",
        "migrate",
        "review",
        "config",
        "rules",
        "explain",
        "server",
    ]
    assert not any(line.rstrip().endswith(("...", "…")) for line in commands)
