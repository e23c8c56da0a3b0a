"""``--statistics``: a count per rule code, as ruff's (`count  code  [*] name`), or the same as JSON.

`check` counts findings; `migrate` counts what is left and what it fixed.
A code is marked ``[*]`` when some of its findings have a safe fix and
``[unsafe]`` when only unsafe ones do, as the text report marks findings.
"""

from __future__ import annotations

import json
from collections import Counter

from jaxfix.transforms import RULES, Applicability

from ..engine import RunResult


def rows(run: RunResult, *, applied: bool) -> list[dict]:
    left = Counter(f.code for _, f in run.findings)
    safe = Counter(f.code for _, f in run.findings if f.fix and f.fix.applicability is Applicability.SAFE)
    unsafe = Counter(f.code for _, f in run.findings if f.fix and f.fix.applicability is Applicability.UNSAFE)
    fixed = Counter(f.code for r in run.files for f in r.applied) if applied else Counter()
    out = []
    for code in sorted(set(left) | set(fixed), key=lambda c: (-left[c], c)):
        rule = RULES.get(code)
        row = {
            "code": code,
            "name": rule.name if rule else None,
            "count": left[code],
            "fixable": safe[code],
            "unsafe_fixable": unsafe[code],
        }
        if applied:
            row["fixed"] = fixed[code]
        out.append(row)
    return out


def render_text(run: RunResult, *, applied: bool) -> str:
    table = rows(run, applied=applied)
    if not table:
        return ""
    width = max(len(str(row["count"])) for row in table)
    lines = []
    for row in table:
        mark = "[*] " if row["fixable"] else "[unsafe] " if row["unsafe_fixable"] else ""
        line = f"{row['count']:>{width}}\t{row['code']}\t{mark}{row['name'] or ''}"
        if applied:
            line += f"\t({row['fixed']} fixed)"
        lines.append(line)
    return "".join(line + "\n" for line in lines)


def render_json(run: RunResult, *, applied: bool) -> str:
    return json.dumps(rows(run, applied=applied), indent=2) + "\n"
