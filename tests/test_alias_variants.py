"""Every golden program re-spelled through aliases keeps its verdict, on the fast path and the whole analysis.

Users write ``import jax as j``, ``from jax import vmap as batch``, ``from
jax.lax import cond as c`` and ``from functools import partial as p``. The
fast path (the byte pre-filter, the ast screen, slicing) must resolve those
names as the whole-module analysis does: no gate may drop a finding (issue 17.3).
And the analysis itself must see through them: the re-spelled program gets
the findings the original gets, on the same lines (the variants keep lines).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from jaxfix.transforms import Options, check

from .variants import ALIAS_VARIANTS

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = sorted((ROOT / "golden").glob("JAX*/*/before.py")) + sorted((ROOT / "examples").glob("*.py"))


def _verdict(result) -> list[tuple[str, int, bool]]:
    return [(f.code, f.line, f.fix is not None) for f in result.findings]


def _full(result):
    return [(f.code, f.span, f.message, f.fix, f.notes) for f in result.findings]


@pytest.mark.parametrize("variant", sorted(ALIAS_VARIANTS))
@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: "/".join(p.parts[-3:-1]) if p.name == "before.py" else p.name)
def test_aliases_keep_the_verdict_on_both_paths(path: Path, variant: str) -> None:
    text = path.read_text()
    respelled = ALIAS_VARIANTS[variant](text)
    if respelled is None:
        pytest.skip("the program imports nothing this variant re-spells")
    options = Options(unsafe_fixes=True)
    fast, whole = check(respelled, options), check(respelled, options, narrow=False)
    assert _full(fast) == _full(whole), "the fast path and the whole analysis disagree"
    assert _verdict(whole) == _verdict_of_original(path), "the aliases changed the verdict"


@cache
def _verdict_of_original(path: Path) -> list[tuple[str, int, bool]]:
    """The original program's verdict, computed once for all the variants of it."""
    return _verdict(check(path.read_text(), Options(unsafe_fixes=True), narrow=False))
