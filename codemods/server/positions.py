"""Places in a document as the Language Server Protocol counts them, from jaxfix's character offsets.

Findings and edits count characters (code points) from the start of the text;
a finding's line is 1-based. LSP counts lines from 0, breaking them only at
``\\n``, ``\\r\\n`` and ``\\r`` (not at the form feeds and separators that
``str.splitlines`` also breaks at), and columns in the code units of the
encoding the client and server agreed on: UTF-16 unless it offered another.
"""

from __future__ import annotations

import bisect
import re

_BREAK = re.compile(r"\r\n|\r|\n")

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def _units(text: str, encoding: str) -> int:
    if encoding == UTF32:
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


class Lines:
    """One text's line starts, for turning offsets into (line, column) and back."""

    def __init__(self, text: str, encoding: str = UTF16) -> None:
        self.text = text
        self.encoding = encoding
        self.starts = [0] + [m.end() for m in _BREAK.finditer(text)]

    def position(self, offset: int) -> tuple[int, int]:
        """(0-based line, column in code units) of a character offset."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.starts, offset) - 1
        return line, _units(self.text[self.starts[line] : offset], self.encoding)

    def line_column(self, line: int, column: int) -> tuple[int, int]:
        """A finding's (1-based line, column in characters) as an LSP position."""
        index = max(0, min(line - 1, len(self.starts) - 1))
        return self.position(self.starts[index] + column)

    def offset(self, line: int, column: int) -> int:
        """The character offset of an LSP (0-based line, column in code units); past the end: the end."""
        if line >= len(self.starts):
            return len(self.text)
        start = self.starts[line]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.text)
        content = _BREAK.sub("", self.text[start:end])
        if self.encoding == UTF32:
            return start + min(column, len(content))
        counted = 0
        for index, character in enumerate(content):
            if counted >= column:
                return start + index
            counted += _units(character, self.encoding)
        return start + len(content)
