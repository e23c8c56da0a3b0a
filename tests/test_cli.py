"""The jaxfix command end to end, as a user runs it (a real process, real files)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from . import programs
from .goldencases import run_python
from .programs import run_cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GOLDEN = ROOT / "golden"


def jaxfix(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m jaxfix` with this process's environment (colour settings included), forked from a
    command-line server (`programs.run_cli`)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JAX_PLATFORMS": "cpu", "COLUMNS": "200"}
    return run_cli(list(args), cwd, env, stdin, timeout=300)


def git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def seed_copy(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    return tmp_path


def test_migrate_makes_seed_000_print_what_if_else_prints(seed_copy: Path) -> None:
    result = jaxfix("migrate", "--allow-no-vcs", "examples", cwd=seed_copy)
    assert result.returncode in (0, 1), result.stderr
    program = seed_copy / "examples" / "seed000_cond_static.py"
    run = programs.run_script(program)
    assert run.returncode == 0, run.stderr
    reference = run_python(GOLDEN / "JAX101" / "seed000_eager" / "reference.py")
    assert run.stdout == reference.stdout


def test_diff_output_applies_with_git_apply(seed_copy: Path) -> None:
    git("init", "-q", cwd=seed_copy)
    git("add", "-A", cwd=seed_copy)
    git("commit", "-qm", "seed", cwd=seed_copy)
    result = jaxfix("diff", "examples", cwd=seed_copy)
    assert result.returncode == 1
    assert result.stdout.startswith(
        "diff --git a/examples/seed000_cond_static.py b/examples/seed000_cond_static.py\n"
        "--- a/examples/seed000_cond_static.py\n"
    )
    subprocess.run(["git", "apply", "-"], input=result.stdout, text=True, cwd=seed_copy, check=True)
    # What git applied is exactly what migrate writes.
    applied = (seed_copy / "examples" / "seed000_cond_static.py").read_text()
    git("checkout", "--", ".", cwd=seed_copy)
    jaxfix("migrate", "examples", cwd=seed_copy)
    assert (seed_copy / "examples" / "seed000_cond_static.py").read_text() == applied


def test_check_exit_codes_and_text(seed_copy: Path) -> None:
    result = jaxfix("check", "examples", cwd=seed_copy)
    assert result.returncode == 1
    assert "examples/seed000_cond_static.py:13:30: JAX101 [*]" in result.stdout
    clean = seed_copy / "clean.py"
    clean.write_text("import jax\nprint(jax.numpy.ones(3))\n")
    assert jaxfix("check", "clean.py", cwd=seed_copy).returncode == 0


def test_check_json_carries_the_edits(seed_copy: Path) -> None:
    result = jaxfix("check", "--output-format", "json", "examples/seed000_cond_static.py", cwd=seed_copy)
    payload = json.loads(result.stdout)
    (finding,) = payload["findings"]
    assert finding["code"] == "JAX101" and finding["rule"] == "static-operand-to-branch"
    assert finding["location"] == {"line": 13, "column": 30}
    edits = finding["fix"]["edits"]
    assert [e["content"] for e in edits] == ["partial(run_true, N)", "partial(run_false, N)", ""]
    assert finding["fix"]["applicability"] == "safe"


def test_bad_input_is_reported_per_file_and_the_rest_processed(seed_copy: Path) -> None:
    (seed_copy / "examples" / "broken.py").write_text("def f(:\n    static_argnums cond\n")
    (seed_copy / "examples" / "latin.py").write_bytes(b"x = '\xff static_argnums cond'\n")
    seed = (seed_copy / "examples" / "seed000_cond_static.py").read_text()
    (seed_copy / "examples" / "continued.py").write_text("\\\n" + seed)  # libcst drops the first line
    result = jaxfix("migrate", "--allow-no-vcs", "examples", cwd=seed_copy)
    assert result.returncode == 2
    assert "examples/broken.py: error: 1:" in result.stderr and "syntax error" in result.stderr
    assert "examples/latin.py: error: cannot decode as utf-8" in result.stderr
    assert "examples/continued.py: error: libcst's tree of this file does not give back" in result.stderr
    assert (seed_copy / "examples" / "continued.py").read_text() == "\\\n" + seed
    assert "partial(run_true, N)" in (seed_copy / "examples" / "seed000_cond_static.py").read_text()


def test_missing_path_is_an_error(seed_copy: Path) -> None:
    result = jaxfix("check", "nope.py", "examples", cwd=seed_copy)
    assert result.returncode == 2
    assert "nope.py: error:" in result.stderr


def test_migrate_refuses_dirty_files_unless_allowed(seed_copy: Path) -> None:
    git("init", "-q", cwd=seed_copy)
    git("add", "-A", cwd=seed_copy)
    git("commit", "-qm", "seed", cwd=seed_copy)
    target = seed_copy / "examples" / "seed000_cond_static.py"
    target.write_text(target.read_text() + "\n# local edit\n")
    before = target.read_text()
    result = jaxfix("migrate", "examples", cwd=seed_copy)
    assert result.returncode == 2
    assert "uncommitted changes" in result.stderr and "examples/seed000_cond_static.py" in result.stderr
    assert target.read_text() == before
    assert jaxfix("migrate", "--allow-dirty", "examples", cwd=seed_copy).returncode in (0, 1)
    assert "partial(run_true, N)" in target.read_text()


def test_unknown_rule_code_is_a_usage_error(seed_copy: Path) -> None:
    result = jaxfix("check", "--select", "XYZ9", "examples", cwd=seed_copy)
    assert result.returncode == 2


def test_rules_and_explain(seed_copy: Path) -> None:
    listing = jaxfix("rules", cwd=seed_copy)
    assert listing.returncode == 0 and "JAX101" in listing.stdout and "static-operand-to-branch" in listing.stdout
    explained = jaxfix("explain", "jax101", cwd=seed_copy)
    assert explained.returncode == 0 and "Non-hashable static arguments" in explained.stdout
    assert jaxfix("explain", "JAX999", cwd=seed_copy).returncode == 2


EXPECTS_THE_ERROR = '''\
import jax
import pytest
from jax import lax


def test_scan_needs_static_length():
    @jax.jit
    def f(n):
        return lax.scan(lambda c, _: (c, None), 0, None, length=n.item())[0]

    with pytest.raises(jax.errors.ConcretizationTypeError):
        f(3)
'''


def test_a_test_that_expects_the_error_is_counted_not_reported(tmp_path):
    """Issue 17.4: jax's own tests call the pitfalls on purpose; `check` must not fail on them."""
    (tmp_path / "test_scan.py").write_text(EXPECTS_THE_ERROR)
    quiet = jaxfix("check", "--no-cache", "test_scan.py", cwd=tmp_path)
    assert quiet.returncode == 0, quiet.stdout + quiet.stderr
    assert "JAX301" not in quiet.stdout
    assert "Skipped 1 in code that expects the error" in quiet.stdout
    shown = jaxfix("check", "--no-cache", "--show-expected-errors", "--output-format", "json", "test_scan.py", cwd=tmp_path)
    assert shown.returncode == 1
    (finding,) = json.loads(shown.stdout)["findings"]
    assert finding["code"] == "JAX301" and finding["fix"] is None and "expects this error" in finding["message"]
