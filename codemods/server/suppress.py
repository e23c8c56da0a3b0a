"""The edit that silences one finding: ``# jaxfix: ignore[CODE]`` on its line, or alone above it.

Where the comment can go is proved, not assumed: each candidate is applied and
kept only if the module still parses to the same tree (a ``#`` inside a string,
or a line added inside a multi-line string, would change it) and the finding's
line is now suppressed for its code (`transforms.core.suppression`, the rule
every command applies). Candidates, in order: the code added to a directive
already on the line (``ignore[A]`` becomes ``ignore[A, B]``), the comment at
the end of the line, the comment alone on a new line above it.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.core.suppression import is_suppressed, suppressions
from jaxfix.transforms.core.textedit import apply_edits

_DIRECTIVE_CODES = re.compile(r"#\s*jaxfix:\s*ignore\[(?P<codes>[A-Z0-9_,\s]*)\]", re.IGNORECASE)
_BREAK = re.compile(r"\r\n|\r|\n")


def _lines(text: str) -> list[tuple[int, int, str]]:
    """(start, end of content, line break) of every line."""
    out, start = [], 0
    for match in _BREAK.finditer(text):
        out.append((start, match.start(), match.group()))
        start = match.end()
    out.append((start, len(text), ""))
    return out


def _comment_on(text: str, line: int) -> tokenize.TokenInfo | None:
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT and token.start[0] == line:
                return token
    except (tokenize.TokenError, SyntaxError):
        return None
    return None


def _tree(text: str) -> str | None:
    try:
        return ast.dump(ast.parse(text))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def suppression_edit(text: str, line: int, code: str) -> Edit | None:
    """An edit after which the finding `code` on 1-based `line` is suppressed (None: no place proved safe)."""
    lines = _lines(text)
    if not 1 <= line <= len(lines):
        return None
    start, end, newline = lines[line - 1]
    content = text[start:end]
    #: (the edit, the finding's line once it is made)
    candidates: list[tuple[Edit, int]] = []
    comment = _comment_on(text, line)
    match = _DIRECTIVE_CODES.search(comment.string) if comment is not None else None
    if comment is not None and match is not None:
        written = match.group("codes").rstrip()
        at = start + comment.start[1] + match.start("codes") + len(written)
        candidates.append((Edit(at, at, f", {code}" if written else code), line))
    candidates.append((Edit(end, end, f"  # jaxfix: ignore[{code}]"), line))
    indent = content[: len(content) - len(content.lstrip(" \t"))]
    above = f"{indent}# jaxfix: ignore[{code}]{newline or _first_break(text)}"
    candidates.append((Edit(start, start, above), line + 1))
    before = _tree(text)
    for edit, finding_line in candidates:
        edited = apply_edits(text, [edit])
        if _tree(edited) == before and is_suppressed(suppressions(edited), finding_line, code):
            return edit
    return None


def _first_break(text: str) -> str:
    match = _BREAK.search(text)
    return match.group() if match else "\n"
