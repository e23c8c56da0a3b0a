"""Multi-file golden cases: a small package per case, fixed as a whole project, run with real JAX.

golden/multi/<case>/
    before/     the package as written (its main program fails)
    after/      what `jaxfix migrate` must leave (absent: report-only)
    reference/  an independent hand fix, printing what after/ must print
    case.toml   run = "pkg.main" (run with `python -m` from the tree's root),
                error = regex for before's stderr, findings = ["pkg/main.py:8:JAX201", ...]
"""

from __future__ import annotations

import re
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from jaxfix.codemods import engine
from jaxfix.codemods.discovery import discover
from jaxfix.transforms import Options

from . import programs

ROOT = Path(__file__).resolve().parent.parent / "golden" / "multi"


@dataclass(frozen=True)
class MultiCase:
    folder: Path
    run: str
    error: str
    findings: tuple[str, ...]

    @property
    def id(self) -> str:
        return self.folder.name

    @property
    def report_only(self) -> bool:
        return not (self.folder / "after").exists()


def _cases() -> list[MultiCase]:
    out = []
    for meta in sorted(ROOT.glob("*/case.toml")):
        data = tomllib.loads(meta.read_text())
        out.append(MultiCase(meta.parent, data["run"], data["error"], tuple(data["findings"])))
    return out


CASES = _cases()


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def migrate(folder: Path) -> engine.RunResult:
    files = discover([folder])
    return engine.run(files, Options(), fix=True, write=True, jobs=1, project_files=files)


def found(folder: Path) -> list[str]:
    files = discover([folder])
    run = engine.run(files, Options(), fix=False, write=False, jobs=1, project_files=files)
    return sorted(
        f"{r.path.relative_to(folder).as_posix()}:{f.line}:{f.code}" for r in run.files for f in r.findings
    )


def python(folder: Path, module: str) -> programs.Run:
    """`python -m module` from the tree's root (tests/programs.py: forked, cached; the hash seed fixed
    as for the single-file golden programs)."""
    return programs.run_module(module, folder, env=programs.program_env(PYTHONPATH=str(folder)))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_project_fix_is_exact(case: MultiCase, tmp_path: Path) -> None:
    work = tmp_path / "project"
    shutil.copytree(case.folder / "before", work)
    assert found(work) == sorted(case.findings)
    migrate(work)
    expected = case.folder / ("before" if case.report_only else "after")
    assert tree(work) == tree(expected)


@pytest.mark.parametrize("case", [c for c in CASES if not c.report_only], ids=lambda c: c.id)
def test_second_project_run_changes_nothing(case: MultiCase, tmp_path: Path) -> None:
    work = tmp_path / "project"
    shutil.copytree(case.folder / "after", work)
    result = migrate(work)
    assert not result.changed and not result.findings
    assert tree(work) == tree(case.folder / "after")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_project_before_fails_with_documented_error(case: MultiCase) -> None:
    run = python(case.folder / "before", case.run)
    assert run.returncode != 0, run.stdout
    assert re.search(case.error, run.stderr, re.DOTALL), run.stderr[-3000:]


@pytest.mark.parametrize("case", [c for c in CASES if not c.report_only], ids=lambda c: c.id)
def test_project_after_prints_what_reference_prints(case: MultiCase) -> None:
    reference = python(case.folder / "reference", case.run)
    assert reference.returncode == 0, reference.stderr[-3000:]
    after = python(case.folder / "after", case.run)
    assert after.returncode == 0, after.stderr[-3000:]
    assert after.stdout == reference.stdout and after.stdout.strip()
