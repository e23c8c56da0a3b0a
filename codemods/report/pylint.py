"""Findings in pylint's parseable format, `path:line: [CODE] message`, which many editors and CI parsers read."""

from __future__ import annotations

from ..engine import RunResult
from .diff import display_path


def render(run: RunResult) -> str:
    lines = [
        f"{display_path(r.path)}:{r.location(f.span.start.line)}: [{f.code}] {f.message}" for r, f in run.findings
    ]
    lines += [f"{display_path(r.path)}:1: [error] {r.error}" for r in run.errors]
    return "".join(line + "\n" for line in lines)
