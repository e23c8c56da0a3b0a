"""A module's outline: its top-level statements, found without parsing it.

An importer asks `repo_index` what another module offers: its top-level
imports, the decorators and signatures of its top-level functions, its
top-level assignments. None of that is inside a function or class body, nor
in a top-level ``if`` or ``try``, and the bodies are most of a module: parsing
the whole of it was most of the cost of following imports across a project.

`outline` keeps every top-level simple statement and decorator as it is
written, each top-level ``def`` and ``class`` header with ``...`` for its body,
and blanks every other line, newlines kept, so line numbers do not move.
Statements are found as Python's tokenizer finds logical lines: one scan
blanks every string and comment (jumping from one to the next; a string's
prefix never changes where it ends), then a line that starts at column 0
starts a statement unless a bracket is still open there or the line before
ends with a backslash.

When the text holds something the scan does not model (a quote that opens
no string it can close, a form feed or a lone carriage return, which move
columns or lines, a NUL byte, a byte-order mark, brackets that do not
balance), `outline` returns None and the caller parses the whole text. A text Python cannot parse may have an outline that parses: the
summary then reads the top-level statements as written.
"""

from __future__ import annotations

import re

#: Where a comment or a string may start; the scan jumps from one to the next.
_LITERAL_START = re.compile(r"[#'\"]")
_STRING = re.compile(
    r"""
      '''[^'\\]*(?:(?:\\[\s\S]|'(?!''))[^'\\]*)*'''
    | \"\"\"[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*\"\"\"
    | '[^'\\\r\n]*(?:\\(?:\r\n|[\s\S])[^'\\\r\n]*)*'
    | "[^"\\\r\n]*(?:\\(?:\r\n|[\s\S])[^"\\\r\n]*)*"
    """,
    re.VERBOSE,
)
_UNMODELLED = ("\x0c", "\x00", "\ufeff")
_LONE_CR = re.compile(r"\r(?!\n)")
#: A line that starts at column 0 (in the masked text: comments and string bodies are blank).
_AT_COLUMN_0 = re.compile(r"\n[^ \t\r\n]")
#: The statement's first word, past ``async``.
_HEAD = re.compile(r"(?:async(?:\s|\\)+)?(\w*)")
#: Compound statements a summary never reads into (their headers and blocks are blanked).
_BLOCKS = frozenset({"if", "elif", "else", "for", "while", "try", "except", "finally", "with"})
_SOFT_BLOCKS = frozenset({"match", "case"})


def masked(text: str) -> str | None:
    """The text with each comment blanked and each string's body blanked, newlines
    included (its first character stays: a line may start with a string). Same length,
    so offsets carry over; what is left is code, whose brackets and backslashes count.
    None: the text holds something the regex does not model."""
    if any(c in text for c in _UNMODELLED) or ("\r" in text and _LONE_CR.search(text)):
        return None
    parts: list[str] = []
    cursor = 0
    search, string, find = _LITERAL_START.search, _STRING.match, text.find
    found = search(text)
    while found is not None:
        start = found.start()
        if text[start] == "#":
            end = find("\n", start)
            end = len(text) if end < 0 else end - (text[end - 1] == "\r")
            filler = " " * (end - start)
        else:
            literal = string(text, start)
            if literal is None:
                return None  # a quote that opens no string the regex can close
            end = literal.end()
            if end - start == 2 and text.startswith(text[start], end):
                return None  # ``''`` then a quote: a triple quote that never closes
            # A string keeps its quotes: a line that ends with a string ends with code.
            filler = text[start] + " " * (end - start - 2) + text[end - 1]
        parts.append(text[cursor:start])
        parts.append(filler)
        cursor = end
        found = search(text, end)
    parts.append(text[cursor:])
    return "".join(parts)


def statement_starts(code: str) -> list[int] | None:
    """The offset of each top-level statement in a `masked` text (None: brackets do not balance).

    A statement starts at column 0 of a line that is outside brackets and not
    continued by a backslash: the next one starts after the block a compound
    statement opens, after blank lines and comments.
    """
    starts: list[int] = [0] if code and code[0] not in " \t\r\n" else []
    depth = 0
    previous = 0
    for match in _AT_COLUMN_0.finditer(code):
        at = match.start() + 1
        depth += _balance(code, previous, at)
        previous = at
        if depth < 0:
            return None
        if depth == 0 and not _continued(code, at):
            starts.append(at)
    if depth + _balance(code, previous, len(code)) != 0:
        return None
    return starts


def _balance(code: str, start: int, end: int) -> int:
    opened = code.count("(", start, end) + code.count("[", start, end) + code.count("{", start, end)
    return opened - code.count(")", start, end) - code.count("]", start, end) - code.count("}", start, end)


def _continued(code: str, line: int) -> bool:
    """Does the line before the one starting at `line` end with a backslash continuation?"""
    before = code[max(0, line - 3) : line]
    return before.endswith(("\\\n", "\\\r\n"))


def _header_end(code: str, start: int, limit: int) -> int:
    """Just past the last character of code of the logical line at `start` (before `limit`)."""
    depth = 0
    cursor = start
    newline = code.find("\n", start, limit)
    while newline >= 0:
        depth += _balance(code, cursor, newline)
        cursor = newline
        if depth == 0 and not _continued(code, newline + 1):
            break
        newline = code.find("\n", newline + 1, limit)
    end = newline if newline >= 0 else limit
    return start + len(code[start:end].rstrip())


def outline(text: str) -> str | None:
    """The text with only what a module summary reads (see the module docstring); None: unsure."""
    code = masked(text)
    starts = statement_starts(code) if code is not None else None
    if code is None or starts is None:
        return None
    parts: list[str] = [_blank(text[: starts[0]] if starts else text)]
    for start, end in zip(starts, [*starts[1:], len(text)]):
        parts.append(_kept(text, code, start, end))
    return "".join(parts)


def _kept(text: str, code: str, start: int, end: int) -> str:
    """What the outline keeps of the top-level statement at `start` (and the block up to `end`)."""
    first = _HEAD.match(code, start).group(1)  # type: ignore[union-attr]
    if first in ("def", "class"):
        header_end = _header_end(code, start, end)
        if code[header_end - 1] == ":":
            return text[start:header_end] + " ..." + _blank(text[header_end:end])
        return text[start:end]  # a body on the header's own line
    if first in _BLOCKS:
        return _blank(text[start:end])
    if first in _SOFT_BLOCKS and code[_header_end(code, start, end) - 1] == ":":
        return _blank(text[start:end])
    return text[start:end]


def _blank(segment: str) -> str:
    return "\n" * segment.count("\n")
