"""The flags ruff's users type, with ruff's meaning (issue 20.1), and --add-noqa (20.2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import BRANCHES, call, commit_all, init_repo, jaxfix

UNSAFE_CALL = "def depth():\n    return 3\n\n\nz = jax.lax.cond(True, run_true, run_false, depth(), 1.0)\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A repository: two safe JAX101 fixes in a.py, one in tests/t.py, one unsafe in u.py."""
    init_repo(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\n\n[tool.jaxfix]\nselect = ["JAX1"]\n')
    (tmp_path / "a.py").write_text(BRANCHES + call(3) + call(4))
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.py").write_text(BRANCHES + call(5))
    (tmp_path / "u.py").write_text(BRANCHES + UNSAFE_CALL)
    commit_all(tmp_path, "init")
    return tmp_path


def reported(stdout: str) -> list[str]:
    return sorted(line.split(": ")[0] for line in stdout.splitlines() if ": JAX" in line)


def test_statistics_counts_per_code_with_the_fix_mark(project: Path) -> None:
    result = jaxfix("check", "--statistics", ".", cwd=project)
    assert result.returncode == 1
    assert result.stdout == "4\tJAX101\t[*] static-operand-to-branch\n"
    rows = json.loads(jaxfix("check", "--statistics", "--output-format", "json", ".", cwd=project).stdout)
    assert rows == [
        {"code": "JAX101", "name": "static-operand-to-branch", "count": 4, "fixable": 3, "unsafe_fixable": 1}
    ]
    migrated = jaxfix("migrate", "--statistics", ".", cwd=project)
    assert migrated.stdout.startswith("1\tJAX101\t[unsafe] static-operand-to-branch\t(3 fixed)\n")


def test_show_fixes_shows_each_fix_then_what_was_fixed(project: Path) -> None:
    shown = jaxfix("check", "--show-fixes", "a.py", cwd=project).stdout
    assert "    -y3 = jax.lax.cond(True, run_true, run_false, 3, 1.0)\n" in shown
    assert "    +y3 = jax.lax.cond(True, partial(run_true, 3), partial(run_false, 3), 1.0)\n" in shown
    assert "-y3" not in jaxfix("check", "a.py", cwd=project).stdout
    fixed = jaxfix("migrate", "--show-fixes", "a.py", "tests", cwd=project).stdout
    assert "Fixed 3 findings:\n- a.py:\n    2 × JAX101 (static-operand-to-branch)\n- tests/t.py:\n    1 × JAX101" in fixed


def test_exit_zero_and_exit_non_zero_on_fix(project: Path) -> None:
    assert jaxfix("check", "--exit-zero", ".", cwd=project).returncode == 0
    (project / "bad.py").write_text("import jax\ndef f(:\n    static_argnums = jax.lax.cond\n")
    assert jaxfix("check", "--exit-zero", "bad.py", cwd=project).returncode == 2  # errors are never zeroed
    assert jaxfix("diff", "-e", "a.py", cwd=project).returncode == 0
    clean = jaxfix("migrate", "a.py", cwd=project)
    assert clean.returncode == 0  # everything fixed
    (project / "a.py").write_text(BRANCHES + call(3))
    commit_all(project, "again")
    assert jaxfix("migrate", "--exit-non-zero-on-fix", "a.py", cwd=project).returncode == 1
    commit_all(project, "fixed")
    assert jaxfix("migrate", "--exit-non-zero-on-fix", "a.py", cwd=project).returncode == 0  # nothing fixed


def test_quiet_silent_verbose(project: Path) -> None:
    quiet = jaxfix("check", "-q", ".", cwd=project)
    assert quiet.returncode == 1 and reported(quiet.stdout) and "Found" not in quiet.stdout
    silent = jaxfix("check", "--silent", ".", cwd=project)
    assert silent.returncode == 1 and silent.stdout == "" and silent.stderr == ""
    verbose = jaxfix("check", "-v", "--no-cache", ".", cwd=project)
    assert "verbose: 3 files with pyproject.toml" in verbose.stderr
    assert "verbose: a.py: analysed" in verbose.stderr and " s\n" in verbose.stderr
    both = jaxfix("check", "-q", "-v", ".", cwd=project)
    assert both.returncode == 2 and "give one" in both.stderr
    migrated = jaxfix("migrate", "-q", "a.py", cwd=project)
    assert migrated.stdout == "" and migrated.returncode == 0


def test_output_file_holds_the_report_and_stdout_nothing(project: Path) -> None:
    result = jaxfix("check", "--output-format", "json", "-o", "report.json", ".", cwd=project)
    assert result.returncode == 1 and result.stdout == ""
    assert len(json.loads((project / "report.json").read_text())["findings"]) == 4
    patch = jaxfix("diff", "--output-file", "fix.patch", "a.py", cwd=project)
    assert patch.stdout == "" and (project / "fix.patch").read_text().startswith("diff --git a/a.py b/a.py")


def test_extend_select_adds_to_the_configured_select(project: Path) -> None:
    (project / "c.py").write_text("x = 1  # jaxfix: ignore[JAX101]\n")  # JAX001 is not in the file's JAX1
    assert jaxfix("check", "c.py", cwd=project).returncode == 0
    extended = jaxfix("check", "--extend-select", "JAX001", "c.py", cwd=project)
    assert extended.returncode == 1 and "c.py:1:8: JAX001" in extended.stdout


def test_per_file_ignores_from_the_file_and_the_flag(project: Path) -> None:
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + 'per-file-ignores = {"tests/*" = ["JAX101"], "!a.py" = ["JAX2"]}\n')
    assert reported(jaxfix("check", ".", cwd=project).stdout) == ["a.py:14:25", "a.py:15:25", "u.py:18:24"]
    flag = jaxfix("check", "--per-file-ignores", "a.py:JAX101", ".", cwd=project)  # replaces the key
    assert reported(flag.stdout) == ["tests/t.py:14:25", "u.py:18:24"]
    negated = jaxfix("check", "--per-file-ignores", "!a.py:JAX1", ".", cwd=project)  # every file but a.py
    assert reported(negated.stdout) == ["a.py:14:25", "a.py:15:25"]
    # Ignored in a file means not fixed there either.
    jaxfix("migrate", ".", cwd=project)
    assert "partial(run_true, 5)" not in (project / "tests" / "t.py").read_text()
    assert "partial(run_true, 3)" in (project / "a.py").read_text()
    bad = jaxfix("check", "--per-file-ignores", "tests/*", ".", cwd=project)
    assert bad.returncode == 2 and "is not GLOB:CODES" in bad.stderr


def test_show_settings_says_where_each_value_comes_from(project: Path) -> None:
    shown = jaxfix("check", "--show-settings", ".", cwd=project, JAXFIX_IGNORE="JAX102", JAXFIX_SELECT="JAX2")
    lines = shown.stdout.splitlines()
    assert shown.returncode == 0
    assert "# configuration file: pyproject.toml" in lines
    assert 'select = ["JAX2"]  # environment $JAXFIX_SELECT' in lines  # env beats the file
    assert 'ignore = ["JAX102"]  # environment $JAXFIX_IGNORE' in lines
    assert "unsafe-fixes = false  # default" in lines
    flagged = jaxfix("check", "--show-settings", "--select", "JAX101", ".", cwd=project, JAXFIX_SELECT="JAX2")
    assert 'select = ["JAX101"]  # flag' in flagged.stdout.splitlines()  # the flag beats the environment
    file_only = jaxfix("check", "--show-settings", ".", cwd=project).stdout.splitlines()
    assert 'select = ["JAX1"]  # file' in file_only
    inline = jaxfix("check", "--show-settings", "--config", "select = ['JAX4']", ".", cwd=project, JAXFIX_SELECT="JAX2")
    assert 'select = ["JAX4"]  # --config' in inline.stdout.splitlines()  # KEY=VALUE beats the environment


def test_show_files_lists_what_would_be_processed(project: Path) -> None:
    (project / "gen").mkdir()
    (project / "gen" / "g.py").write_text("x = 1\n")
    listed = jaxfix("check", "--show-files", "--exclude", "gen", ".", cwd=project)
    assert listed.returncode == 0 and listed.stdout.splitlines() == ["a.py", "tests/t.py", "u.py"]


def test_config_file_and_isolated(project: Path, tmp_path_factory) -> None:
    other = tmp_path_factory.mktemp("conf") / "jaxfix.toml"
    other.write_text('ignore = ["JAX101"]\n')  # a TOML file of the table's keys, as ruff.toml
    assert jaxfix("check", "--config", str(other), ".", cwd=project).returncode == 0
    bad = other.with_name("bad.toml")
    bad.write_text("selekt = []\n")
    refused = jaxfix("check", "--config", str(bad), ".", cwd=project)
    assert refused.returncode == 2 and "unknown key `selekt`" in refused.stderr and "(did you mean `select`?)" in refused.stderr
    (project / "pyproject.toml").write_text('[tool.jaxfix]\nignore = ["JAX1"]\n')
    assert jaxfix("check", ".", cwd=project).returncode == 0
    assert jaxfix("check", "--isolated", ".", cwd=project).returncode == 1  # the file is not read
    typo = jaxfix("check", "--config", "selekt = ['JAX1']", ".", cwd=project)
    assert typo.returncode == 2 and "unknown key `selekt`" in typo.stderr
    missing = jaxfix("check", "--config", "nowhere.toml", ".", cwd=project)
    assert missing.returncode == 2 and "no such file" in missing.stderr


def test_environment_variables_set_the_main_settings(project: Path) -> None:
    assert jaxfix("check", ".", cwd=project, JAXFIX_IGNORE="JAX101").returncode == 0
    assert reported(jaxfix("check", ".", cwd=project, JAXFIX_EXCLUDE="tests u.py").stdout) == ["a.py:14:25", "a.py:15:25"]
    fmt = jaxfix("check", "a.py", cwd=project, JAXFIX_OUTPUT_FORMAT="pylint")
    assert fmt.stdout.startswith("a.py:14: [JAX101]")
    applied = jaxfix("migrate", "u.py", cwd=project, JAXFIX_UNSAFE_FIXES="true")
    assert applied.returncode == 0 and "partial(run_true, depth())" in (project / "u.py").read_text()
    halves = [jaxfix("check", "--show-files", ".", cwd=project, JAXFIX_SHARD=f"{k}/2").stdout.split() for k in (1, 2)]
    assert sorted(halves[0] + halves[1]) == ["a.py", "tests/t.py", "u.py"] and all(halves)
    jaxfix("check", "--output-format", "json", ".", cwd=project, JAXFIX_OUTPUT_FILE="out.json")
    assert len(json.loads((project / "out.json").read_text())["findings"]) == 3  # u.py's fix was applied above
    bad = jaxfix("check", ".", cwd=project, JAXFIX_SELECT="JAX9")
    assert bad.returncode == 2 and "$JAXFIX_SELECT" in bad.stderr and "no rule matches JAX9" in bad.stderr


def test_stdin_filename_names_the_file_and_picks_its_settings(project: Path) -> None:
    source = (project / "tests" / "t.py").read_text()
    named = jaxfix("check", "--stdin-filename", "src/model.py", "-", cwd=project, stdin=source)
    assert named.returncode == 1 and named.stdout.startswith("src/model.py:14:25: JAX101")
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + 'per-file-ignores = {"tests/*" = ["JAX101"]}\n')
    ignored = jaxfix("check", "--stdin-filename", "tests/t.py", "-", cwd=project, stdin=source)
    assert ignored.returncode == 0, ignored.stdout
    fixed = jaxfix("migrate", "--stdin-filename", "src/model.py", "-", cwd=project, stdin=source)
    assert "partial(run_true, 5)" in fixed.stdout
    alone = jaxfix("check", "--stdin-filename", "x.py", "a.py", cwd=project)
    assert alone.returncode == 2 and "give `-`" in alone.stderr


def test_add_noqa_writes_jaxfix_ignore_comments(project: Path) -> None:
    result = jaxfix("check", "--add-noqa", ".", cwd=project)
    assert result.returncode == 0, result.stderr
    assert "Added 4 suppression comments." in result.stderr
    assert (project / "a.py").read_text().splitlines()[13].endswith(")  # jaxfix: ignore[JAX101]")
    after = jaxfix("check", "--extend-select", "JAX0", ".", cwd=project)
    assert after.returncode == 0, after.stdout  # silenced, and each comment silences something (no JAX001)
    (project / "a.py").write_text((project / "a.py").read_text() + "\n")
    refused = jaxfix("check", "--add-noqa", "a.py", cwd=project)
    assert refused.returncode == 2 and "a.py" in refused.stderr  # dirty: the dirty-tree rule
