"""Findings and their fix edits as JSON, for tools."""

from __future__ import annotations

import json as _json

from transforms import RULES, Finding
from transforms.textedit import LineIndex

from ..engine import FileResult, RunResult
from .diff import display_path


def _position(index: LineIndex, offset: int) -> dict[str, int]:
    pos = index.position(offset)
    return {"line": pos.line, "column": pos.column + 1}


def finding_record(result: FileResult, finding: Finding) -> dict:
    index = LineIndex(result.original)
    record = {
        "code": finding.code,
        "rule": RULES[finding.code].name if finding.code in RULES else None,
        "message": finding.message,
        "filename": display_path(result.path),
        "location": {"line": finding.span.start.line, "column": finding.span.start.column + 1},
        "end_location": {"line": finding.span.end.line, "column": finding.span.end.column + 1},
        "notes": list(finding.notes),
        "fix": None,
    }
    if finding.fix is not None:
        record["fix"] = {
            "applicability": finding.fix.applicability.value,
            "message": finding.fix.description,
            "edits": [
                {
                    "content": edit.content,
                    "location": _position(index, edit.start),
                    "end_location": _position(index, edit.end),
                }
                for edit in finding.fix.edits
            ],
        }
    return record


def render(run: RunResult) -> str:
    payload = {
        "findings": [finding_record(r, f) for r, f in run.findings],
        "errors": [{"filename": display_path(r.path), "message": r.error} for r in run.errors],
    }
    return _json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
