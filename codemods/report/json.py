"""Findings and their fix edits as JSON, for tools."""

from __future__ import annotations

import json as _json
from pathlib import Path

from jaxfix.transforms import RULES, Finding
from jaxfix.transforms.core.textedit import LineIndex

from ..engine import FileResult, RunResult
from .diff import display_path


def _position(result: FileResult, index: LineIndex, offset: int) -> dict[str, int]:
    pos = index.position(offset)
    return _location(result, pos.line, pos.column)


def _location(result: FileResult, line: int, column: int) -> dict:
    """Line and column; in a notebook, the cell and the line within it."""
    if result.cells:
        cell, _, cell_line = result.location(line).removeprefix("cell ").partition(":")
        return {"cell": int(cell), "line": int(cell_line), "column": column + 1}
    return {"line": line, "column": column + 1}


def _edit_record(result: FileResult, index: LineIndex, edit) -> dict:
    """An edit of this file (line and column), or of another file of the project (its path and offsets)."""
    if edit.file:
        return {"content": edit.content, "file": display_path(Path(edit.file)), "start": edit.start, "end": edit.end}
    return {
        "content": edit.content,
        "location": _position(result, index, edit.start),
        "end_location": _position(result, index, edit.end),
    }


def finding_record(result: FileResult, finding: Finding) -> dict:
    index = LineIndex(result.analysed_text)
    record = {
        "code": finding.code,
        "rule": RULES[finding.code].name if finding.code in RULES else None,
        "message": finding.message,
        "filename": display_path(result.path),
        "location": _location(result, finding.span.start.line, finding.span.start.column),
        "end_location": _location(result, finding.span.end.line, finding.span.end.column),
        "notes": list(finding.notes),
        "fix": None,
    }
    if finding.fix is not None:
        record["fix"] = {
            "applicability": finding.fix.applicability.value,
            "message": finding.fix.description,
            "edits": [
                _edit_record(result, index, edit)
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
