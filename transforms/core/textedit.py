"""Offsets, lines and columns of a source text, and applying edits to it.

Lines end at "\\r\\n", "\\r" or "\\n", as in Python's tokenizer (not at the other
characters str.splitlines() treats as breaks), so positions agree with libcst's.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable, Sequence

from jaxfix.transforms.core.findings import Edit, Fix, Position

_NEWLINE = re.compile(r"\r\n|\r|\n")
#: The characters other than "\r" and "\n" that str.splitlines() breaks at.
_OTHER_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_OTHER_ASCII_BREAKS = "\x0b\x0c\x1c\x1d\x1e"


def plain_breaks(text: str) -> bool:
    """Does str.splitlines() break the text where Python does? (No form feed, ``\\x85``,
    ``\\u2028`` and the like, which a string literal may hold.)"""
    return not (any(c in text for c in _OTHER_ASCII_BREAKS) or (not text.isascii() and _OTHER_BREAKS.search(text)))


def line_starts(text: str) -> list[int]:
    """The offset where each line starts, as Python numbers lines. Summed from
    str.splitlines() when it breaks where Python does (most texts: no regex match per line)."""
    if not plain_breaks(text):
        return [0] + [m.end() for m in _NEWLINE.finditer(text)]
    starts = list(itertools.accumulate(map(len, text.splitlines(keepends=True)), initial=0))
    if text and not text.endswith(("\n", "\r")):
        starts.pop()  # the end of a last line with no line break starts no line
    return starts


class LineIndex:
    """Maps between character offsets and (line, column) positions."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts = line_starts(text)

    def offset(self, line: int, column: int) -> int:
        return self._starts[line - 1] + column

    def position(self, offset: int) -> Position:
        line = bisect.bisect_right(self._starts, offset)
        return Position(line, offset - self._starts[line - 1])

    def line_start(self, line: int) -> int:
        if line - 1 >= len(self._starts):
            return len(self.text)
        return self._starts[line - 1]

    def line_text(self, line: int) -> str:
        """The text of a line without its line break."""
        start = self.line_start(line)
        end = self.line_start(line + 1) if line < len(self._starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    @property
    def line_count(self) -> int:
        return len(self._starts)


def split_lines(text: str) -> list[str]:
    """Lines with their line breaks, broken where Python's tokenizer breaks them."""
    lines = _LINE.findall(text)
    return lines if lines and lines[-1] else lines[:-1]


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def newline_of(text: str) -> str:
    """The first line break used in text, "\\n" when there is none."""
    match = _NEWLINE.search(text)
    return match.group() if match else "\n"


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits (identical duplicates are applied once)."""
    ordered = sorted(set(edits), key=lambda e: (e.start, e.end))
    out: list[str] = []
    cursor = 0
    for edit in ordered:
        if edit.start < cursor:
            raise ValueError(f"overlapping edits at offset {edit.start}")
        out.append(text[cursor : edit.start])
        out.append(edit.content)
        cursor = edit.end
    out.append(text[cursor:])
    return "".join(out)


def select_compatible(fixes: Sequence[Fix]) -> list[Fix]:
    """Pick fixes, in order, whose edits overlap no edit of a fix already picked.

    Edits equal to one already picked (the same import added by two fixes) are
    not conflicts. Skipped fixes are found again and applied on the next pass.
    """
    chosen: list[Fix] = []
    taken: set[Edit] = set()
    for fix in fixes:
        fresh = [e for e in fix.edits if e not in taken]
        if any(e.overlaps(t) for e in fresh for t in taken):
            continue
        if any(a.overlaps(b) for i, a in enumerate(fresh) for b in fresh[i + 1 :]):
            continue
        chosen.append(fix)
        taken.update(fresh)
    return chosen
