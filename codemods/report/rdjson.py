"""Findings as reviewdog's rdjson (a DiagnosticResult), fixes as suggestions.

reviewdog turns suggestions into one-click pull-request suggestions, so only
the fixes jaxfix would apply itself (safe ones, or unsafe ones with
``--unsafe-fixes``) become suggestions; the others are named in the message.
Columns are 1-based UTF-8 byte counts and ranges end exclusively, as the
format defines them.
"""

from __future__ import annotations

import json

from jaxfix.transforms import Applicability, Finding
from jaxfix.transforms.core.textedit import LineIndex

from ..engine import FileResult, RunResult
from .diff import display_path
from .text import finding_line


def byte_position(index: LineIndex, offset: int) -> dict[str, int]:
    position = index.position(offset)
    prefix = index.line_text(position.line)[: position.column]
    return {"line": position.line, "column": len(prefix.encode("utf-8", "surrogatepass")) + 1}


def _span_range(index: LineIndex, finding: Finding) -> dict:
    start = index.offset(finding.span.start.line, finding.span.start.column)
    end = index.offset(finding.span.end.line, finding.span.end.column)
    return {"start": byte_position(index, start), "end": byte_position(index, end)}


def diagnostic(result: FileResult, index: LineIndex, finding: Finding, *, unsafe_fixes: bool) -> dict:
    message = "\n".join([finding.message, *(f"note: {note}" for note in finding.notes)])
    record: dict = {
        "message": message,
        "location": {"path": display_path(result.path), "range": _span_range(index, finding)},
        "severity": "WARNING",
        "code": {"value": finding.code},
        "original_output": finding_line(result, finding),
    }
    fix = finding.fix
    if fix is not None:
        if any(e.file for e in fix.edits):
            record["message"] += "\nthe fix also edits other files of the project: jaxfix migrate"
        elif fix.applicability is Applicability.SAFE or unsafe_fixes:
            record["suggestions"] = [
                {"range": {"start": byte_position(index, e.start), "end": byte_position(index, e.end)}, "text": e.content}
                for e in sorted(fix.edits, key=lambda e: (e.start, e.end))
            ]
        else:
            record["message"] += "\nan unsafe fix is available: jaxfix migrate --unsafe-fixes"
    return record


def render(run: RunResult, *, unsafe_fixes: bool = False) -> str:
    indexes: dict[int, LineIndex] = {}
    diagnostics = [
        diagnostic(r, indexes.setdefault(id(r), LineIndex(r.original)), f, unsafe_fixes=unsafe_fixes)
        for r, f in run.findings
    ]
    diagnostics += [
        {"message": r.error or "error", "location": {"path": display_path(r.path)}, "severity": "ERROR"}
        for r in run.errors
    ]
    payload = {"source": {"name": "jaxfix"}, "severity": "WARNING", "diagnostics": diagnostics}
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
