"""The corpus proof (`proof.py`) on real code, opt-in.

    JAXFIX_CORPUS=/path/to/repos python -m pytest tests/corpus -q

``JAXFIX_CORPUS`` names a folder; each folder inside it is one project (a
checkout of jax, flax, ...), proved on its own, without and with unsafe
fixes. Without the variable these tests are skipped: the corpus is large,
and not ours to ship.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .proof import prove, render

_CORPUS = os.environ.get("JAXFIX_CORPUS")


def _projects() -> list[Path]:
    if not _CORPUS:
        return []
    root = Path(_CORPUS)
    return sorted(p for p in root.iterdir() if p.is_dir()) or [root]


pytestmark = pytest.mark.skipif(not _CORPUS, reason="JAXFIX_CORPUS names no folder of projects")


@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
@pytest.mark.parametrize("project", _projects(), ids=lambda p: p.name)
def test_corpus(project: Path, unsafe: bool, tmp_path: Path) -> None:
    proof = prove(project, unsafe_fixes=unsafe, work=tmp_path)
    assert not proof.problems, render(proof)
