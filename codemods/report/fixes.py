"""``--show-fixes``: what the fixes are (check: each fix's diff under its finding) or were (migrate: per file)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from jaxfix.transforms import RULES, Finding
from jaxfix.transforms.core.textedit import apply_edits

from ..engine import FileResult, RunResult
from .diff import display_path, unified_diff


def fix_diff(result: FileResult, finding: Finding) -> list[str]:
    """The finding's fix as a diff of its own file, indented under the finding (other files: named)."""
    if finding.fix is None or result.cells:
        return []
    local = [e for e in finding.fix.edits if not e.file]
    patch = unified_diff(result.original, apply_edits(result.original, local), result.path)
    lines = [f"    {line}" for line in patch.splitlines() if not line.startswith(("--- ", "+++ "))]
    others = sorted({e.file for e in finding.fix.edits if e.file})
    lines += [f"    (also edits {display_path(Path(other))})" for other in others]
    return lines


def fixed_summary(run: RunResult) -> str:
    """ruff's enumeration: ``Fixed N findings:`` then each file and ``count × CODE (name)``."""
    changed = [r for r in run.files if r.applied and not r.error]
    if not changed:
        return ""
    total = sum(len(r.applied) for r in changed)
    out = [f"Fixed {total} finding{'s' if total != 1 else ''}:"]
    for result in changed:
        out.append(f"- {display_path(result.path)}:")
        for code, count in sorted(Counter(f.code for f in result.applied).items()):
            rule = RULES.get(code)
            out.append(f"    {count} × {code}" + (f" ({rule.name})" if rule else ""))
    return "".join(line + "\n" for line in out)
