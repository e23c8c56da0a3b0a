"""`jaxfix rules` and `jaxfix explain`: the pair shown is a golden case, from a checkout and from a wheel."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from jaxfix.codemods import golden_examples
from jaxfix.transforms import RULES

from .goldencases import all_cases
from .helpers import GOLDEN, ROOT, jaxfix


def _read(path: Path) -> str:
    with open(path, encoding="utf-8", newline="") as handle:
        return handle.read()


def test_rules_lists_code_name_and_fix_class_plainly_when_piped(tmp_path: Path) -> None:
    result = jaxfix("rules", cwd=tmp_path)
    assert result.returncode == 0
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert [row[:3] for row in rows] == [[code, rule.name, rule.fix_label()] for code, rule in RULES.items()]
    assert "─" not in result.stdout and "\x1b[" not in result.stdout


def test_every_rule_has_an_example_and_it_is_a_checked_golden_case() -> None:
    examples = golden_examples.collect(GOLDEN)
    assert set(RULES) <= set(examples)
    cases = {case.id: case for case in all_cases()}
    for code, example in examples.items():
        case = cases[example["case"]]  # a case test_golden runs four ways (report-only: text unchanged)
        assert example["before"] == _read(case.before)
        if case.report_only:
            assert RULES[code].report_only and example["after"] == ""  # only a report-only rule shows one
        else:
            assert example["after"] == _read(case.after)


def test_the_marked_case_is_chosen() -> None:
    assert golden_examples.collect(GOLDEN)["JAX101"]["case"] == "JAX101/seed000_eager"
    assert golden_examples.collect(GOLDEN)["JAX102"]["case"] == "JAX102/bare_jit_decorator"


def test_choice_without_a_mark_skips_report_only_and_option_cases(tmp_path: Path) -> None:
    for name, files, meta in [
        ("a_report_only", ["before.py"], ""),
        ("b_unsafe", ["before.py", "after.py"], "[options]\nunsafe_fixes = true\n"),
        ("c_plain", ["before.py", "after.py"], ""),
        ("d_later", ["before.py", "after.py"], ""),
    ]:
        folder = tmp_path / "JAX999" / name
        folder.mkdir(parents=True)
        (folder / "case.toml").write_text(f'description = "{name}"\nerror = "x"\n{meta}')
        for file in files:
            (folder / file).write_text(f"# {name} {file}\n")
    assert golden_examples.collect(tmp_path)["JAX999"]["case"] == "JAX999/c_plain"


def test_explain_shows_docs_and_the_golden_pair(tmp_path: Path) -> None:
    result = jaxfix("explain", "jax101", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.startswith("JAX101 static-operand-to-branch (safe fix)\n")
    assert "Non-hashable static arguments" in result.stdout
    assert "Example (golden/JAX101/seed000_eager, run by the test suite with real JAX):" in result.stdout
    case = GOLDEN / "JAX101" / "seed000_eager"
    before = result.stdout.index("\nBefore:\n")
    after = result.stdout.index("\nAfter:\n")
    assert result.stdout[before + len("\nBefore:\n") : after].strip("\n") == _read(case / "before.py").strip("\n")
    assert result.stdout[after + len("\nAfter:\n") :].strip("\n") == _read(case / "after.py").strip("\n")


def test_explain_unknown_code_exits_2(tmp_path: Path) -> None:
    result = jaxfix("explain", "JAX999", cwd=tmp_path)
    assert result.returncode == 2 and "no rule 'JAX999'" in result.stderr


@pytest.fixture(scope="module")
def installed_wheel(tmp_path_factory) -> Path:
    """The package built into a wheel from a copy of this checkout, unpacked where no golden/ is beside it."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "src"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".jaxfix_cache"),
    )
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(work / "dist"), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (wheel,) = (work / "dist").glob("jaxfix-*.whl")
    site = work / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    return site


def test_installed_wheel_carries_the_examples_and_explain_shows_them(installed_wheel: Path, tmp_path: Path) -> None:
    assert not (installed_wheel / "golden").exists()
    assert (installed_wheel / "jaxfix" / "codemods" / golden_examples.INDEX_NAME).is_file()
    environment = {**os.environ, "PYTHONPATH": str(installed_wheel), "COLUMNS": "200"}
    where = subprocess.run(
        [sys.executable, "-c", "import codemods, transforms; print(codemods.__file__); print(transforms.__file__)"],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120,
    )
    assert all(line.startswith(str(installed_wheel)) for line in where.stdout.split()), where.stdout + where.stderr
    result = subprocess.run(
        [sys.executable, "-m", "jaxfix", "explain", "JAX102"],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Example (golden/JAX102/bare_jit_decorator" in result.stdout
    assert _read(GOLDEN / "JAX102" / "bare_jit_decorator" / "after.py").strip("\n") in result.stdout
