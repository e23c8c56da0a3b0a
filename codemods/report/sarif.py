"""Findings as a SARIF 2.1.0 log, with each fix as replacements on the original text.

For code-scanning uploads and editors. Columns are counted in Unicode code
points (``columnKind``), which is what jaxfix's positions are; every fix is
included with its applicability in its properties, since SARIF fixes are
proposals a person or a tool chooses to apply.
"""

from __future__ import annotations

import json
import urllib.parse
from pathlib import Path

from jaxfix.transforms import RULES, Edit, Finding
from jaxfix.transforms.core.textedit import LineIndex

from ..engine import FileResult, RunResult
from ..rule_docs import help_uri
from ..version import version
from .diff import display_path
from .fingerprints import fingerprints

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
#: The key of jaxfix's own fingerprint in `partialFingerprints` (versioned, as SARIF asks).
FINGERPRINT = "jaxfixFindingHash/v1"


def artifact_location(path: Path) -> dict:
    """A URI relative to the working folder (%SRCROOT%) when the file is under it."""
    shown = display_path(path)
    if Path(shown).is_absolute():
        return {"uri": Path(shown).as_uri()}
    return {"uri": urllib.parse.quote(shown), "uriBaseId": SRCROOT}


def _region(index: LineIndex, start: int, end: int) -> dict:
    first, last = index.position(start), index.position(end)
    return {
        "startLine": first.line,
        "startColumn": first.column + 1,
        "endLine": last.line,
        "endColumn": last.column + 1,
    }


def _rule_descriptor(code: str) -> dict:
    rule = RULES[code]
    documentation = rule.documentation()
    descriptor = {
        "id": code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": documentation.split("\n\n")[0].replace("\n", " ")},
        "help": {"text": documentation},
        "defaultConfiguration": {"level": "warning"},
        "properties": {"fixClass": rule.fix_label()},
    }
    uri = help_uri(code)
    if uri is not None:
        descriptor["helpUri"] = uri
    return descriptor


def _fix(result: FileResult, index: LineIndex, finding: Finding) -> dict:
    assert finding.fix is not None
    edits: list[Edit] = sorted(finding.fix.edits, key=lambda e: (e.file, e.start, e.end))
    description = finding.fix.description or "apply jaxfix's fix"
    changes = [
        {
            "artifactLocation": artifact_location(result.path),
            "replacements": [
                {"deletedRegion": _region(index, e.start, e.end), "insertedContent": {"text": e.content}}
                for e in edits
                if not e.file
            ],
        }
    ]
    # Edits in other files of the project: regions by character offset in that file.
    for other in sorted({e.file for e in edits if e.file}):
        changes.append(
            {
                "artifactLocation": artifact_location(Path(other)),
                "replacements": [
                    {
                        "deletedRegion": {"charOffset": e.start, "charLength": e.end - e.start},
                        "insertedContent": {"text": e.content},
                    }
                    for e in edits
                    if e.file == other
                ],
            }
        )
    return {
        "description": {"text": f"{description} ({finding.fix.applicability.value} fix)"},
        "artifactChanges": [c for c in changes if c["replacements"]],
        "properties": {"applicability": finding.fix.applicability.value},
    }


def _result(result: FileResult, index: LineIndex, finding: Finding, rule_index: dict[str, int], mark: str) -> dict:
    span = finding.span
    text = " ".join([finding.message, *(f"Note: {n}" for n in finding.notes)])
    record: dict = {
        "ruleId": finding.code,
        "level": "warning",
        "message": {"text": text},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": artifact_location(result.path),
                    "region": {
                        "startLine": span.start.line,
                        "startColumn": span.start.column + 1,
                        "endLine": span.end.line,
                        "endColumn": span.end.column + 1,
                    },
                }
            }
        ],
    }
    if finding.code in rule_index:
        record["ruleIndex"] = rule_index[finding.code]
    # Code scanning matches results across runs by these: path, rule, message and the lines' text.
    record["partialFingerprints"] = {FINGERPRINT: mark}
    if finding.fix is not None:
        record["fixes"] = [_fix(result, index, finding)]
    return record


def render(run: RunResult) -> str:
    rule_index = {code: i for i, code in enumerate(RULES)}
    indexes: dict[int, LineIndex] = {}
    results = []
    for (result, finding), mark in zip(run.findings, fingerprints(run.findings)):
        index = indexes.setdefault(id(result), LineIndex(result.original))
        results.append(_result(result, index, finding, rule_index, mark))
    notifications = [
        {
            "level": "error",
            "message": {"text": error.error or "error"},
            "locations": [{"physicalLocation": {"artifactLocation": artifact_location(error.path)}}],
        }
        for error in run.errors
    ]
    log = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "jaxfix",
                        "version": version(),
                        "rules": [_rule_descriptor(code) for code in RULES],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "originalUriBaseIds": {SRCROOT: {"uri": Path.cwd().as_uri().rstrip("/") + "/"}},
                "invocations": [
                    {"executionSuccessful": not run.errors, "toolExecutionNotifications": notifications}
                ],
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
