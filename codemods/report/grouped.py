"""Findings grouped by file, as ruff's `grouped`: the path once, then `line:col CODE message` under it."""

from __future__ import annotations

from ..engine import RunResult
from .diff import display_path
from .text import fix_mark


def render(run: RunResult) -> str:
    out: list[str] = []
    for result in run.files:
        if not result.findings and not result.error:
            continue
        out.append(f"{display_path(result.path)}:")
        if result.error:
            out.append(f"  error: {result.error}")
        for finding in result.findings:
            where = f"{result.location(finding.span.start.line)}:{finding.span.start.column + 1}"
            out.append(f"  {where} {finding.code} {fix_mark(finding)}{finding.message}")
            out.extend(f"      note: {note}" for note in finding.notes)
        out.append("")
    return "".join(line + "\n" for line in out)
