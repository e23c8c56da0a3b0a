"""Findings as JSON Lines: one object a line (the `json` format's finding records), errors too.

For log pipelines and `jq -c` filters that read a line at a time, as ruff's json-lines.
"""

from __future__ import annotations

import json

from ..engine import RunResult
from .diff import display_path
from .json import finding_record


def render(run: RunResult) -> str:
    records = [finding_record(r, f) for r, f in run.findings]
    records += [{"filename": display_path(r.path), "error": r.error} for r in run.errors]
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
