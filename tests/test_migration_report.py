"""`migrate --report FILE.md` and `diff --report`: Markdown for the pull request (issue 20.5)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from jaxfix.codemods.report.migration import dependencies
from jaxfix.transforms import Finding, Position, Span

from .helpers import GOLDEN, commit_all, init_repo, jaxfix

LINK = re.compile(r"\[(?P<text>[^\]]+)\]\((?P<path>[^)#]+)#L(?P<line>\d+)\)")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A cross-module JAX201 fix that adds frozendict, a fix that adds an import above itself,
    a JAX201 report (with its options), an unsafe JAX101, and a file that does not parse."""
    root = init_repo(tmp_path / "repo")
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\n')
    shutil.copytree(GOLDEN / "multi" / "config_in_other_module" / "before" / "pkg", root / "src" / "pkg")
    for name, case in [("factory", "JAX101/import_added_jit_factory"), ("mutated", "JAX201/refuse_helper_mutates"),
                       ("unsafe", "JAX101/report_unsafe_by_default")]:
        shutil.copy(GOLDEN / case / "before.py", root / "src" / f"{name}.py")
    (root / "src" / "broken.py").write_text("import jax\ndef f(:\n    static_argnums = jax.lax.cond\n")
    commit_all(root, "before")
    return root


def test_the_report_says_what_was_fixed_added_and_left(repo: Path) -> None:
    result = jaxfix("migrate", "--select", "JAX101,JAX201", "--report", "../migration.md", ".", cwd=repo / "src")
    assert result.returncode == 2  # broken.py
    report = (repo / "migration.md").read_text(encoding="utf-8")
    assert report.startswith("## jaxfix migration\n\njaxfix ")
    assert "fixed **2** findings in **2** files; **3** need a person." in report  # configs.py and factory.py
    fixed = report[report.index("### Fixed") : report.index("### New dependencies")]
    assert "#### [JAX101 static-operand-to-branch](" in fixed and "#### [JAX201 unhashable-static-arg](" in fixed
    # Links are relative to the repository root (not to src/, where it ran), lines as after the migration.
    links = {m["path"]: int(m["line"]) for m in LINK.finditer(fixed)}
    assert set(links) == {"src/factory.py", "src/pkg/main.py"}
    assert "partial(fill, 3)" in (repo / "src/factory.py").read_text().splitlines()[links["src/factory.py"] - 1]
    deps = report[report.index("### New dependencies") : report.index("### Needs a person")]
    assert "- `frozendict` (`from frozendict import frozendict`), imported by the fix at [src/pkg/main.py:8]" in deps
    checklist = report[report.index("### Needs a person") : report.index("### Reproduce")]
    items = [line for line in checklist.splitlines() if line.startswith("- [ ] ")]
    assert len(items) == 3
    assert any("**JAX201** unhashable-static-arg" in item and "src/mutated.py:21" in item for item in items)
    assert any("**JAX101**" in item and "unsafe fix is offered" in item for item in items)
    assert any(item.startswith("- [ ] `src/broken.py`: not processed:") for item in items)
    assert "\n  - " in checklist  # the report-only finding's options, under it
    assert report.endswith("### Reproduce\n\n```sh\njaxfix migrate --select JAX101,JAX201 .\n```\n")


def test_diff_report_describes_the_same_migration_and_writes_nothing(repo: Path) -> None:
    before = {p: p.read_bytes() for p in (repo / "src").rglob("*.py")}
    result = jaxfix("diff", "--report", str(repo / "dry.md"), "--select", "JAX1", "src", cwd=repo)
    assert result.returncode == 2
    assert before == {p: p.read_bytes() for p in (repo / "src").rglob("*.py")}
    report = (repo / "dry.md").read_text()
    assert "would fix **1** finding in **1** file" in report and ": 1 would be fixed" in report
    assert "JAX201" not in report  # not selected
    assert "jaxfix diff --select JAX1 src\n" in report  # --report and its file are not part of it
    # The link points at the line as it will read once the patch is applied.
    (link,) = LINK.finditer(report[report.index("### Fixed") : report.index("### New")])
    assert link["path"] == "src/factory.py" and int(link["line"]) == 19


def test_a_clean_migration_says_nothing_needs_a_person(repo: Path) -> None:
    result = jaxfix("migrate", "--select", "JAX101", "--report", "r.md", "src/factory.py", cwd=repo)
    assert result.returncode == 0
    report = (repo / "r.md").read_text()
    assert "nothing needs a person." in report and "Nothing: every finding was fixed." in report
    assert "None: the fixes import only the standard library" in report


def test_dependencies_are_packages_outside_the_standard_library() -> None:
    span = Span(Position(1, 0), Position(1, 1))
    notes = [
        Finding("JAX101", "m", span, notes=("adds `from functools import partial`",)),
        Finding("JAX201", "m", span, notes=("adds `from immutabledict import immutabledict`",)),
        Finding("JAX201", "m", span, notes=("adds `import flax.core`: the `flax` package becomes a dependency",)),
    ]
    found = dependencies((f"[a.py:{i}](a.py#L{i})", f) for i, f in enumerate(notes, 1))
    assert [(d.package, d.places) for d in found] == [("flax", ("[a.py:3](a.py#L3)",)), ("immutabledict", ("[a.py:2](a.py#L2)",))]
