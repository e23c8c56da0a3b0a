"""`tests/corpus/proof.py` itself, on a tiny folder, so the corpus script cannot rot.

The folder has one file with a fix, one with a finding to report only, one
without JAX, one Python cannot parse, a notebook and a non-Python file: the
proof must pass, and change exactly the file with the fix. Its judgement of
writes is also checked on made-up snapshots, where it must find problems.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.corpus import proof
from tests.helpers import GOLDEN


def _folder(root: Path) -> Path:
    folder = root / "project"
    (folder / "pkg").mkdir(parents=True)
    shutil.copy(GOLDEN / "JAX101" / "method_self" / "before.py", folder / "pkg" / "fixable.py")
    shutil.copy(GOLDEN / "JAX301" / "refuse_body_reads_xs" / "before.py", folder / "pkg" / "reported.py")
    (folder / "pkg" / "__init__.py").write_text("")
    (folder / "plain.py").write_text("import os\n\nprint(os.sep)\n")
    (folder / "broken.py").write_text("import jax\n\nf = jax.jit(g, static_argnums=0)\nlength = jax.lax.scan(f, 0, None, length=n)\ndef f(:\n    pass\n")
    (folder / "notes.txt").write_text("jax.jit static_argnums\n")
    cell = {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": ["import jax\n", "x = 1\n"]}
    notebook = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (folder / "nb.ipynb").write_text(json.dumps(notebook))
    return folder


def test_proof_passes_and_lists_the_one_change(tmp_path):
    folder = _folder(tmp_path)
    before = proof.snapshot(folder)
    result = proof.prove(folder, jobs=1, work=tmp_path)
    assert result.problems == []
    assert [c.path for c in result.changes] == ["pkg/fixable.py"]
    assert {f["code"] for c in result.changes for f in c.findings} == {"JAX101"}
    assert result.files == 6
    assert result.findings >= 2 and result.fixable >= 1
    assert [e.split(":")[0] for e in result.errors] == ["broken.py"]
    assert proof.snapshot(folder) == before  # the folder itself is never written
    assert "pkg/fixable.py" in proof.render(result)


def test_judging_writes_finds_what_is_wrong(tmp_path):
    (tmp_path / "bad.py").write_text("def f(:\n")
    (tmp_path / "quiet.py").write_text("x = 1\n")
    before = {"bad.py": "1", "quiet.py": "1", "gone.py": "1"}
    after = {"bad.py": "2", "quiet.py": "2", "new.py": "1"}
    fixable = {"fix": {"applicability": "safe"}, "code": "JAX101"}
    result = proof.Proof()
    proof._judge_writes(tmp_path, before, after, {"bad.py": [fixable]}, False, result)
    text = "\n".join(result.problems)
    assert "appeared ['new.py']" in text and "vanished ['gone.py']" in text
    assert "quiet.py, where check found no fix" in text
    assert "bad.py no longer parses" in text
