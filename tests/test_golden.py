"""Every golden case, four ways (DESIGN.md 3): exact text, idempotence, and both programs run."""

from __future__ import annotations

import re

import pytest

from jaxfix.transforms import Options, check, fix_source

from .goldencases import Case, ValidCase, all_cases, run_python, valid_cases

CASES = all_cases()
IDS = [c.id for c in CASES]
VALID = valid_cases()


def _read(path) -> str:
    with open(path, encoding="utf-8", newline="") as handle:
        return handle.read()


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_rewrite_is_exact(case: Case) -> None:
    before = _read(case.before)
    checked = check(before, case.options)
    assert [f"{f.code}:{f.line}" for f in checked.findings] == list(case.findings)
    fixed = fix_source(before, case.options, checked=checked).text
    expected = before if case.report_only else _read(case.after)
    assert fixed == expected


@pytest.mark.parametrize("case", [c for c in CASES if not c.report_only], ids=[c.id for c in CASES if not c.report_only])
def test_second_run_changes_nothing(case: Case) -> None:
    after = _read(case.after)
    result = fix_source(after, case.options)
    assert result.text == after
    assert result.findings == ()  # nothing applied, so these are all check(after) finds: none


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_before_fails_with_documented_error(case: Case) -> None:
    run = run_python(case.before)
    assert run.returncode != 0, f"before.py ran cleanly:\n{run.stdout}"
    assert re.search(case.error, run.stderr, re.DOTALL), run.stderr[-3000:]


@pytest.mark.parametrize("case", [c for c in CASES if not c.report_only], ids=[c.id for c in CASES if not c.report_only])
def test_after_prints_what_reference_prints(case: Case) -> None:
    after = run_python(case.after)
    assert after.returncode == 0, after.stderr[-3000:]
    assert after.stdout.strip(), "the program printed nothing to compare"
    if case.after.read_bytes() == case.reference.read_bytes():
        return  # the rewrite is the reference, byte for byte: one run shows what both print
    reference = run_python(case.reference)
    assert reference.returncode == 0, reference.stderr[-3000:]
    assert after.stdout == reference.stdout


def test_every_rule_has_golden_cases() -> None:
    from jaxfix.transforms import RULES

    covered = {c.folder.parent.name for c in CASES}
    assert set(RULES) <= covered, f"rules without golden cases: {sorted(set(RULES) - covered)}"


@pytest.mark.parametrize("case", VALID, ids=[c.id for c in VALID])
def test_a_working_look_alike_gets_no_finding_and_runs(case: ValidCase) -> None:
    """Working programs that look like a pitfall: no finding on the fast path nor the whole
    analysis, unsafe fixes included, and the program really runs. One check per path serves both
    settings: `check` never reads unsafe_fixes (tests/test_screen_and_slice.py pins that)."""
    text = _read(case.program)
    options = Options(unsafe_fixes=True)
    assert check(text, options).findings == []  # so fix_source has nothing to apply
    assert check(text, options, narrow=False).findings == []
    run = run_python(case.program)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip(), "the program printed nothing"


def test_real_cases_name_their_origin() -> None:
    """A case cut down from a public report says where it comes from."""
    for case in [*CASES, *VALID]:
        if case.origin:
            assert case.origin.startswith("https://"), case.id
    assert all(c.origin for c in VALID), [c.id for c in VALID if not c.origin]
