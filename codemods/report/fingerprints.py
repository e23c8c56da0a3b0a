"""One stable identity per finding, for the formats that track findings across runs (SARIF, GitLab).

The review bot's fingerprint (path, rule, message and the text of the lines,
so it survives code moving down), made unique within a run: a second
identical finding (the same line written twice) gets its occurrence number.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable

from jaxfix.transforms import Finding
from jaxfix.transforms.core.textedit import LineIndex

from ..engine import FileResult
from ..review.suggestions import fingerprint
from .diff import display_path


def fingerprints(findings: Iterable[tuple[FileResult, Finding]]) -> list[str]:
    """A fingerprint for each (result, finding), in order; no two alike."""
    indexes: dict[int, LineIndex] = {}
    seen: Counter[str] = Counter()
    out = []
    for result, finding in findings:
        index = indexes.setdefault(id(result), LineIndex(result.analysed_text))
        base = fingerprint(display_path(result.path), finding, index)
        seen[base] += 1
        if seen[base] > 1:
            base = hashlib.sha256(f"{base}#{seen[base]}".encode()).hexdigest()[:16]
        out.append(base)
    return out
