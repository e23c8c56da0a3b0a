"""Findings as GitHub Actions workflow commands (``::warning file=…,line=…::message``).

Printed in a workflow step, each becomes an annotation on the file's line in
the run summary and the pull request's diff. Values are escaped as the
runner expects, so a message with a newline, a comma or a colon cannot end
the command early or smuggle in another one.
"""

from __future__ import annotations

from jaxfix.transforms import RULES, Applicability, Finding

from ..engine import FileResult, RunResult
from .diff import display_path


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _command(kind: str, properties: dict[str, object], message: str) -> str:
    props = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return f"::{kind} {props}::{escape_data(message)}"


def annotation(result: FileResult, finding: Finding) -> str:
    span = finding.span
    rule = RULES.get(finding.code)
    title = f"{finding.code} {rule.name}" if rule else finding.code
    lines = [finding.message, *(f"note: {note}" for note in finding.notes)]
    if finding.fix is not None:
        how = "jaxfix migrate" if finding.fix.applicability is Applicability.SAFE else "jaxfix migrate --unsafe-fixes"
        lines.append(f"fix: {finding.fix.description or 'available'} (apply with `{how}`)")
    properties: dict[str, object] = {
        "file": display_path(result.path),
        "line": span.start.line,
        "endLine": span.end.line,
        "title": title,
    }
    if span.start.line == span.end.line:  # GitHub ignores columns on multi-line annotations
        properties["col"] = span.start.column + 1
        properties["endColumn"] = span.end.column + 1
    return _command("warning", properties, "\n".join(lines))


def error_annotation(result: FileResult) -> str:
    return _command("error", {"file": display_path(result.path), "title": "jaxfix"}, result.error or "error")


def render(run: RunResult) -> str:
    lines = [annotation(r, f) for r, f in run.findings]
    lines += [error_annotation(r) for r in run.errors]
    return "".join(line + "\n" for line in lines)
