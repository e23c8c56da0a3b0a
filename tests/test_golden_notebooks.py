"""Golden notebooks (golden/notebooks/<case>/): the pitfall in a Jupyter notebook, cells in execution order.

A case holds before.ipynb and case.toml (description, origin, and for a fix or report case `error`
and `findings` as "CODE:cell N:LINE"); a fix case also after.ipynb (what `jaxfix migrate` writes,
byte for byte) and reference.py (an independent fix). The programs run as the notebook runs, top to
bottom, its code cells joined (`codemods.notebooks`: magics become comments): before must fail with
the documented error, after must print what the reference prints. A case without `error` is a
working look-alike: no finding, and it runs.
"""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest

from jaxfix.codemods import engine
from jaxfix.codemods.notebooks import read
from jaxfix.transforms import Options

from . import programs

ROOT = Path(__file__).resolve().parent.parent / "golden" / "notebooks"
CASES = sorted(p.parent for p in ROOT.glob("*/case.toml"))


def _meta(case: Path) -> dict:
    return tomllib.loads((case / "case.toml").read_text(encoding="utf-8"))


def _options(case: Path) -> Options:
    return Options(**_meta(case).get("options", {}))


def _as_script(notebook: Path, folder: Path, name: str) -> Path:
    """The notebook's code cells as one program, the way it runs top to bottom."""
    script = folder / name
    script.write_text(read(notebook.read_text(encoding="utf-8")).python()[0], encoding="utf-8")
    return script


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_findings_and_rewrite_are_exact(case: Path, tmp_path: Path) -> None:
    meta = _meta(case)
    path = tmp_path / "before.ipynb"
    shutil.copy(case / "before.ipynb", path)
    found = engine.process_file(path, _options(case), fix=False, write=False)
    assert [f"{f.code}:{found.location(f.line)}" for f in found.findings] == list(meta.get("findings", ()))
    engine.process_file(path, _options(case), fix=True, write=True)
    expected = case / "after.ipynb"
    written = path.read_text(encoding="utf-8")
    assert written == (expected.read_text(encoding="utf-8") if expected.exists() else (case / "before.ipynb").read_text(encoding="utf-8"))
    again = engine.process_file(path, _options(case), fix=True, write=False)
    if expected.exists():
        assert list(again.findings) == [], "the fixed notebook still has findings"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_notebook_runs_as_documented(case: Path, tmp_path: Path) -> None:
    meta = _meta(case)
    before = programs.run_script(_as_script(case / "before.ipynb", tmp_path, "before.py"))
    if "error" not in meta:
        assert before.returncode == 0, before.stderr[-3000:]
        return
    assert before.returncode != 0, f"before.ipynb ran cleanly:\n{before.stdout}"
    assert re.search(meta["error"], before.stderr, re.DOTALL), before.stderr[-3000:]
    if (case / "after.ipynb").exists():
        reference = programs.run_script(case / "reference.py")
        after = programs.run_script(_as_script(case / "after.ipynb", tmp_path, "after.py"))
        assert reference.returncode == 0, reference.stderr[-3000:]
        assert after.returncode == 0, after.stderr[-3000:]
        assert after.stdout == reference.stdout and after.stdout.strip()


def test_every_notebook_case_names_its_origin() -> None:
    assert CASES, "no golden notebooks"
    assert all(_meta(c).get("origin", "").startswith("https://") for c in CASES)
