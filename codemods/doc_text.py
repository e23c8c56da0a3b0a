"""A rule's documentation, written in reStructuredText, as text a terminal shows well.

Rules document themselves in the small part of reStructuredText their
docstrings use: ``inline literals``, a paragraph ending in ``::`` that
introduces an indented literal block, numbered and bulleted lists. On a
terminal, literals are styled and lose their backquotes; piped, they keep
one backquote each side (as jaxfix's own messages quote code). ``::`` reads
as ``:`` (or goes, when it stands alone), and literal blocks are kept as
written: no markup inside them is touched.
"""

from __future__ import annotations

import re

from rich.text import Text

_INLINE_LITERAL = re.compile(r"``(.+?)``", re.DOTALL)  # a literal may run over a line break
LITERAL_STYLE = "bold cyan"
BLOCK_STYLE = "cyan"


def _prose(lines: list[str], styled: bool) -> Text:
    """Lines of prose (no literal block among them), their inline literals rendered."""
    prose = "".join(lines)
    text = Text()
    cursor = 0
    for match in _INLINE_LITERAL.finditer(prose):
        text.append(prose[cursor : match.start()])
        if styled:
            text.append(match.group(1), style=LITERAL_STYLE)
        else:
            text.append(f"`{match.group(1)}`")
        cursor = match.end()
    text.append(prose[cursor:])
    return text


def _without_block_marker(line: str) -> str:
    """``text::`` -> ``text:``; ``text ::`` -> ``text``; a lone ``::`` -> an empty line."""
    body = line.rstrip()
    if body.strip() == "::":
        return ""
    if body.endswith(" ::"):
        return body[:-3].rstrip()
    return body[:-1]


def render(documentation: str, *, styled: bool) -> Text:
    """The documentation as terminal text: styled for a terminal, plain with backquotes when piped."""
    out = Text()
    prose: list[str] = []  # lines of prose not yet rendered (a literal may span them)
    block_indent: int | None = None  # inside a literal block: lines indented deeper than this belong to it
    introduced_at: int | None = None  # the previous paragraph ended in "::" at this indentation

    def block_line(line: str) -> None:
        out.append_text(_prose(prose, styled))
        prose.clear()
        out.append(line, style=BLOCK_STYLE if styled and line.strip() else None)
        out.append("\n")

    for line in documentation.splitlines():
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if block_indent is not None:
            if not stripped or indent > block_indent:
                block_line(line)
                continue
            block_indent = None
        if introduced_at is not None and stripped:
            if indent > introduced_at:
                block_indent, introduced_at = introduced_at, None
                block_line(line)
                continue
            introduced_at = None  # "::" with no indented block after it: nothing to keep literal
        if stripped.endswith("::"):
            introduced_at = indent
            line = _without_block_marker(line)
        prose.append(line + "\n")
    out.append_text(_prose(prose, styled))
    out.rstrip()
    return out
