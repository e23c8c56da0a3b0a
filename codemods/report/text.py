"""Findings as lines for people: ``path:line:col: CODE [*] message``, then a summary."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from jaxfix.transforms import Applicability, Finding

from ..engine import FileResult, RunResult
from .diff import display_path


def finding_line(result: FileResult, finding: Finding) -> str:
    where = f"{display_path(result.path)}:{result.location(finding.span.start.line)}:{finding.span.start.column + 1}"
    return f"{where}: {finding.code} {fix_mark(finding)}{finding.message}"


def fix_mark(finding: Finding) -> str:
    """``[*] `` for a safe fix, ``[unsafe] `` for an unsafe one, nothing without a fix (ruff's marks)."""
    if finding.fix is None:
        return ""
    return "[*] " if finding.fix.applicability is Applicability.SAFE else "[unsafe] "


def finding_lines(result: FileResult, finding: Finding) -> list[str]:
    return [finding_line(result, finding), *(f"    note: {note}" for note in finding.notes)]


def error_line(result: FileResult) -> str:
    return f"{display_path(result.path)}: error: {result.error}"


def summary(run: RunResult, *, applied: bool) -> str:
    findings = [f for _, f in run.findings]
    safe = sum(1 for f in findings if f.fix and f.fix.applicability is Applicability.SAFE)
    unsafe = sum(1 for f in findings if f.fix and f.fix.applicability is Applicability.UNSAFE)
    parts: list[str] = []
    if applied:
        fixed = sum(len(f.applied) for f in run.files)
        parts.append(f"Fixed {fixed} finding{'s' if fixed != 1 else ''} in {len(run.changed)} file{'s' if len(run.changed) != 1 else ''}.")
    if findings:
        tail = []
        if safe:
            tail.append(f"{safe} fixable with `jaxfix migrate`")
        if unsafe:
            tail.append(f"{unsafe} with `--unsafe-fixes`")
        extra = f" ({', '.join(tail)})" if tail else ""
        parts.append(f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''}{extra}.")
    elif not applied:
        parts.append("No findings.")
    if run.expected:
        parts.append(expected_note(run.expected))
    if run.errors:
        parts.append(f"{len(run.errors)} file{'s' if len(run.errors) != 1 else ''} could not be checked.")
    return " ".join(parts)


def expected_note(count: int) -> str:
    """The summary's word on findings skipped in code that expects their error."""
    return (
        f"Skipped {count} in code that expects the error (pytest.raises, assertRaises, a try catching it, a test marked skip or xfail); "
        "--show-expected-errors lists them."
    )


def counts_by_rule(findings: Iterable[Finding]) -> Counter[str]:
    return Counter(f.code for f in findings)
