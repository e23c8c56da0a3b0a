"""Findings as reviewdog's rdjson (a DiagnosticResult), fixes as suggestions.

reviewdog turns each suggestion of a diagnostic into its own ```suggestion
block, holding the suggestion's lines with only that suggestion applied. So
a diagnostic carries at most one: the whole fix, as a replacement of the
unbroken run of lines it touches (the rule review's own suggestions follow,
``review.suggestions.line_run``). A fix that edits separate places (an
import at the top and the call) is never split into suggestions, since
committing one part alone breaks the code: its diff goes in the message.

Only fixes jaxfix would apply itself become suggestions: safe ones, or
unsafe ones where the file's own settings allow unsafe fixes. Columns are
1-based UTF-8 byte counts and ranges end exclusively, as the format defines.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from jaxfix.transforms import Applicability, Finding, Fix
from jaxfix.transforms.core.textedit import LineIndex, apply_edits

from ..engine import FileResult, RunResult
from ..review.suggestions import line_run
from .diff import display_path, unified_diff
from .text import finding_line

_BREAKS = ("\r\n", "\n", "\r")


def byte_position(index: LineIndex, offset: int) -> dict[str, int]:
    position = index.position(offset)
    prefix = index.line_text(position.line)[: position.column]
    return {"line": position.line, "column": len(prefix.encode("utf-8", "surrogatepass")) + 1}


def _span_range(index: LineIndex, finding: Finding) -> dict:
    start = index.offset(finding.span.start.line, finding.span.start.column)
    end = index.offset(finding.span.end.line, finding.span.end.column)
    return {"start": byte_position(index, start), "end": byte_position(index, end)}


def whole_line_suggestion(text: str, index: LineIndex, fix: Fix) -> dict | None:
    """The fix as one suggestion replacing whole lines, or None when it is not one run of lines.

    The range runs from the first line's first column to the end of the last
    line's text (its line break stays), so applying it as a plain text edit and
    rebuilding the lines as reviewdog does give the same lines.
    """
    run = line_run(text, index, fix.edits)
    if run is None or not run.text:
        return None  # separate places, joined lines, or lines deleted outright
    replacement = run.text
    region_end = index.line_start(run.last + 1) if run.last < index.line_count else len(text)
    old_last_line = text[index.line_start(run.last) : region_end]
    for line_break in _BREAKS:
        if old_last_line.endswith(line_break) and replacement.endswith(line_break):
            replacement = replacement[: -len(line_break)]
            break
    last_text = index.line_text(run.last)
    return {
        "range": {
            "start": {"line": run.first, "column": 1},
            "end": {"line": run.last, "column": len(last_text.encode("utf-8", "surrogatepass")) + 1},
        },
        "text": replacement,
    }


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
    if fix is None:
        return record
    if any(e.file for e in fix.edits):
        record["message"] += "\nthe fix also edits other files of the project: jaxfix migrate"
    elif not (fix.applicability is Applicability.SAFE or unsafe_fixes):
        record["message"] += "\nan unsafe fix is available: jaxfix migrate --unsafe-fixes"
    elif result.cells:
        record["message"] += "\na fix is available in this notebook: jaxfix migrate"
    else:
        suggestion = whole_line_suggestion(result.original, index, fix)
        if suggestion is not None:
            record["suggestions"] = [suggestion]
        else:
            fixed = apply_edits(result.original, fix.edits)
            patch = unified_diff(result.original, fixed, result.path)
            record["message"] += (
                "\nthe fix changes separate places, so it is not a one-click suggestion; "
                f"apply it with jaxfix migrate:\n{patch}"
            ).rstrip("\n")
    return record


def render(run: RunResult, *, unsafe_fixes: Callable[[Path], bool] = lambda path: False) -> str:
    """The run as rdjson; ``unsafe_fixes(path)`` says whether that file's settings allow unsafe fixes."""
    indexes: dict[int, LineIndex] = {}
    diagnostics = [
        diagnostic(r, indexes.setdefault(id(r), LineIndex(r.original)), f, unsafe_fixes=unsafe_fixes(r.path))
        for r, f in run.findings
    ]
    diagnostics += [
        {"message": r.error or "error", "location": {"path": display_path(r.path)}, "severity": "ERROR"}
        for r in run.errors
    ]
    payload = {"source": {"name": "jaxfix"}, "severity": "WARNING", "diagnostics": diagnostics}
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
