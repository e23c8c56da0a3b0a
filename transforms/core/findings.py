"""What a rule reports: a finding, and the fix it proposes as plain text edits.

Fixes are text edits on the original source (as in ruff), not CST rewrites, so
that each finding's fix can be shown, accepted or refused on its own (interactive
diff, pull-request suggestions, SARIF) and applied without reformatting anything
around it.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field


def shorten(text: str, limit: int = 60) -> str:
    """Code quoted in a message: on one line, and cut to `limit` characters with "..."."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def enumerate_words(items: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: names listed in a message."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class Applicability(str, enum.Enum):
    """Whether a fix is applied by default (safe) or only with --unsafe-fixes."""

    SAFE = "safe"
    UNSAFE = "unsafe"


@dataclass(frozen=True, order=True)
class Position:
    """A place in a file: 1-based line, 0-based column counted in characters."""

    line: int
    column: int


@dataclass(frozen=True)
class Span:
    start: Position
    end: Position


@dataclass(frozen=True, order=True)
class Edit:
    """Replace text[start:end] with content (character offsets; start == end inserts).

    `file` is empty for the module the finding is in; otherwise the path of
    another module of the project the fix must change too (offsets are then
    in that file's text, as it was read).
    """

    start: int
    end: int
    content: str
    file: str = ""

    def overlaps(self, other: Edit) -> bool:
        if self.file != other.file:
            return False
        if self.start == self.end or other.start == other.end:
            # An insertion only conflicts with a replacement strictly around it.
            point, rng = (self, other) if self.start == self.end else (other, self)
            return rng.start < point.start < rng.end
        return max(self.start, other.start) < min(self.end, other.end)


@dataclass(frozen=True)
class Fix:
    applicability: Applicability
    edits: tuple[Edit, ...]
    description: str = ""


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    span: Span
    fix: Fix | None = None
    #: Extra lines for people: the options when no rewrite is offered, caveats.
    notes: tuple[str, ...] = field(default=())

    @property
    def line(self) -> int:
        return self.span.start.line

    @property
    def fixable(self) -> bool:
        return self.fix is not None

    def sort_key(self) -> tuple[int, int, str]:
        return (self.span.start.line, self.span.start.column, self.code)


def finding_to_dict(finding: Finding) -> dict:
    """A plain-JSON form (for the result cache and machine output)."""
    fix = finding.fix
    return {
        "code": finding.code,
        "message": finding.message,
        "span": [finding.span.start.line, finding.span.start.column, finding.span.end.line, finding.span.end.column],
        "notes": list(finding.notes),
        "fix": None
        if fix is None
        else {
            "applicability": fix.applicability.value,
            "description": fix.description,
            "edits": [[e.start, e.end, e.content, e.file] for e in fix.edits],
        },
    }


def finding_from_dict(data: dict) -> Finding:
    a, b, c, d = data["span"]
    fix = data["fix"]
    return Finding(
        data["code"],
        data["message"],
        Span(Position(a, b), Position(c, d)),
        None
        if fix is None
        else Fix(
            Applicability(fix["applicability"]),
            tuple(Edit(*edit) for edit in fix["edits"]),
            fix["description"],
        ),
        tuple(data["notes"]),
    )
