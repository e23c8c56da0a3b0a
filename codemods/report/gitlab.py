"""Findings as a GitLab Code Quality report (`artifacts: reports: codequality:`).

The format is the subset of the Code Climate spec GitLab reads: a JSON array
of issues with description, check_name, fingerprint, severity and a location
(a path relative to the repository, and lines). GitLab shows one entry per
fingerprint in the merge request, so each finding's is unique (`fingerprints`).
Paths are relative to the repository root, as GitLab resolves them there.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from jaxfix.transforms import RULES, Applicability

from ..engine import RunResult
from .fingerprints import fingerprints


def repository_path(path: Path, root: Path) -> str:
    """The path relative to `root` with / separators (absolute when outside it)."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(root).as_posix()
    except ValueError:
        return absolute.as_posix()


def render(run: RunResult, root: Path) -> str:
    issues = []
    for (result, finding), mark in zip(run.findings, fingerprints(run.findings)):
        rule = RULES.get(finding.code)
        description = finding.message
        if finding.fix is not None:
            how = "" if finding.fix.applicability is Applicability.SAFE else " --unsafe-fixes"
            description += f" (fix: jaxfix migrate{how})"
        issue: dict = {
            "type": "issue",
            "check_name": f"{finding.code} {rule.name}" if rule else finding.code,
            "description": description,
            "categories": ["Bug Risk"],
            "fingerprint": mark,
            "severity": "minor" if finding.fix is not None else "major",
            "location": {
                "path": repository_path(result.path, root),
                "lines": {"begin": finding.span.start.line, "end": finding.span.end.line},
            },
        }
        if result.cells:  # a notebook: lines of its code cells' module, so say the cell
            issue["description"] += f" ({result.location(finding.span.start.line)})"
        issues.append(issue)
    for result in run.errors:
        issues.append(
            {
                "type": "issue",
                "check_name": "jaxfix error",
                "description": result.error or "error",
                "categories": ["Bug Risk"],
                "fingerprint": f"error:{repository_path(result.path, root)}",
                "severity": "blocker",
                "location": {"path": repository_path(result.path, root), "lines": {"begin": 1}},
            }
        )
    return json.dumps(issues, indent=2, ensure_ascii=False) + "\n"
