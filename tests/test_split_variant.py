"""Every golden program split into two modules of one package keeps its verdict (issue 19's
"the module split in two files of one package"; the variant is tests/split_variant.py).

The package is checked as a project (`engine.run` with every file), as `jaxfix check` checks a
repository. A golden/valid program must get no finding. A fix or report case must get the
original's verdict (the multiset of code and fixed-or-not, over both files), unless it is listed in
tests/data/split_variant_gaps.txt: cross-module analysis does not yet follow it, and the test is a
strict xfail (a case that starts passing must leave the list).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from jaxfix.codemods import engine
from jaxfix.codemods.discovery import discover
from jaxfix.transforms import Options, check

from .goldencases import all_cases, valid_cases
from .split_variant import split_module
from .variants import NotApplicable

CASES = {c.id: c for c in all_cases()}
VALID = {c.id: c for c in valid_cases()}
OPTIONS = Options(unsafe_fixes=True)
GAPS = frozenset(
    line.strip()
    for line in (Path(__file__).parent / "data" / "split_variant_gaps.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
)


def _params():
    out = []
    for case_id in [*CASES, *VALID]:
        marks = [pytest.mark.xfail(strict=True, reason="cross-module analysis does not follow it yet")] if case_id in GAPS else []
        out.append(pytest.param(case_id, marks=marks, id=case_id))
    return out


def _read(path) -> str:
    with open(path, encoding="utf-8", newline="") as handle:
        return handle.read()


def _package_verdict(files: dict[str, str], root: Path) -> Counter:
    for relative, text in files.items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    paths = discover([root])
    run = engine.run(paths, OPTIONS, fix=False, write=False, jobs=1, project_files=paths)
    assert not [r.error for r in run.files if r.error]
    return Counter((f.code, f.fix is not None) for r in run.files for f in r.findings)


@pytest.mark.parametrize("case_id", _params())
def test_a_split_program_keeps_the_verdict(case_id: str, tmp_path: Path) -> None:
    valid = case_id in VALID
    text = _read(VALID[case_id].program if valid else CASES[case_id].before)
    try:
        files = split_module(text)
    except NotApplicable as reason:
        pytest.skip(f"not applicable: {reason}")
    got = _package_verdict(files, tmp_path)
    if valid:
        assert got == Counter(), "a finding in a working program split in two modules"
        return
    want = Counter((f.code, f.fix is not None) for f in check(text, OPTIONS, narrow=False).findings)
    assert got == want, "splitting the program changed the verdict"


def test_gaps_name_real_cases() -> None:
    assert GAPS <= set(CASES), sorted(GAPS - set(CASES))
