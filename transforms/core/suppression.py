"""Inline suppression: ``# jaxfix: ignore[JAX201]``, bare ``# jaxfix: ignore``, and ruff's ``# noqa``.

The comment silences findings that start on its own line, or on the next line
when the comment stands alone on its line. ``# noqa: JAX201`` works as
``# jaxfix: ignore[JAX201]`` does, and a bare ``# noqa`` silences every code,
as ruff honours it; codes of other tools in a noqa list (``E501``) are theirs
and never read here. Comments are found with the tokenizer, so ``#`` inside
strings never counts.

Pure text in, findings out: `unused` says which directives silence nothing
(JAX001), and `add_directives` writes new ones (``--add-noqa``).
"""

from __future__ import annotations

import bisect
import io
import re
import tokenize
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from jaxfix.transforms.core.findings import Applicability, Edit, Finding, Fix, Position, Span

#: The code of the findings `unused` reports.
UNUSED_CODE = "JAX001"

_JAXFIX = re.compile(r"#\s*jaxfix:\s*ignore(?:\[(?P<codes>[A-Za-z0-9_,\s]*)\])?", re.IGNORECASE)
# ruff's grammar: `noqa` in any case, then optionally a colon and codes (letters then digits)
# separated by commas or spaces. The whole-file forms (ruff's and flake8's, `ruff:` or `flake8:`
# before the word) do not match.
_NOQA = re.compile(r"#\s*(?i:noqa)(?:\s*:\s*(?P<codes>[A-Z]+[0-9]+(?:(?:\s*,\s*|\s+)[A-Z]+[0-9]+)*))?")
#: Codes jaxfix owns in a noqa list; the rest belong to other linters.
_OURS = re.compile(r"JAX[0-9]*$")

#: line -> codes silenced there (None: every code)
Suppressions = dict[int, frozenset[str] | None]


@dataclass(frozen=True)
class Directive:
    """One suppression comment (or one of several in a comment)."""

    kind: str  # "jaxfix" or "noqa"
    line: int
    #: The lines it silences: its own, and the next one when it stands alone on its line.
    targets: tuple[int, ...]
    #: The codes it names, as written (upper case); None: every code.
    codes: tuple[str, ...] | None
    #: Character offsets in the text: the directive, the comment holding it, and the comment's line.
    start: int
    end: int
    comment_start: int
    comment_end: int
    alone: bool
    #: For noqa: the codes of other tools it also names (kept by a fix).
    foreign: tuple[str, ...] = ()


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for index, char in enumerate(text):
        if char == "\n":
            starts.append(index + 1)
    return starts


def _tokens(text: str) -> list[tokenize.TokenInfo] | None:
    try:
        return list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return None


_NOT_CODE = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER)


def directives(text: str) -> list[Directive]:
    """Every suppression directive in the text, in order."""
    if "jaxfix" not in text and "noqa" not in text.lower():
        return []
    tokens = _tokens(text)
    if tokens is None:
        return []
    starts = _line_starts(text)
    code_lines = {t.start[0] for t in tokens if t.type not in _NOT_CODE}
    out: list[Directive] = []
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
        line = token.start[0]
        comment_start = starts[line - 1] + token.start[1]
        comment_end = comment_start + len(token.string)
        alone = line not in code_lines
        targets = (line, line + 1) if alone else (line,)
        found = [("jaxfix", m) for m in _JAXFIX.finditer(token.string)]
        found += [("noqa", m) for m in _NOQA.finditer(token.string)]
        for kind, match in sorted(found, key=lambda item: item[1].start()):
            written = match.group("codes")
            codes: tuple[str, ...] | None
            foreign: tuple[str, ...] = ()
            if written is None or (kind == "noqa" and not written.strip()):
                codes = None
            else:
                every = [c.upper() for c in re.split(r"[\s,]+", written) if c]
                if kind == "noqa":
                    codes = tuple(c for c in every if _OURS.match(c))
                    foreign = tuple(c for c in every if not _OURS.match(c))
                    if not codes:
                        continue  # only other tools' codes (E501, say): not ours to read
                else:
                    codes = tuple(every)
            out.append(
                Directive(
                    kind,
                    line,
                    targets,
                    codes,
                    comment_start + match.start(),
                    comment_start + match.end(),
                    comment_start,
                    comment_end,
                    alone,
                    foreign,
                )
            )
    return out


def suppressions(text: str) -> Suppressions:
    out: Suppressions = {}
    for directive in directives(text):
        silenced = None if directive.codes is None else frozenset(directive.codes)
        for target in directive.targets:
            _merge(out, target, silenced)
    return out


def _merge(out: Suppressions, line: int, codes: frozenset[str] | None) -> None:
    if line in out and (out[line] is None or codes is None):
        out[line] = None
    else:
        out[line] = (out.get(line) or frozenset()) | (codes or frozenset()) if codes is not None else None


def is_suppressed(table: Suppressions, line: int, code: str) -> bool:
    if line not in table:
        return False
    codes = table[line]
    return codes is None or code in codes


# -- JAX001: directives that silence nothing -------------------------------------------------------


def unused(
    text: str,
    findings: Iterable[Finding],
    *,
    known: Callable[[str], bool],
    judged: Callable[[str], bool],
    judge_bare: bool,
) -> list[Finding]:
    """A JAX001 finding for each directive naming a code no rule has, or silencing nothing.

    `findings` are every finding before suppression; `known(code)`: a rule has
    that code; `judged(code)`: that rule ran here (selected, not ignored for
    this file), so its silence means the directive is unused; `judge_bare`:
    every rule ran, so a bare ``# jaxfix: ignore`` that silences nothing is
    unused too. A bare ``# noqa`` is never reported: it serves other linters.
    """
    found = directives(text)
    if not found:
        return []
    at: dict[int, set[str]] = {}
    for finding in findings:
        at.setdefault(finding.line, set()).add(finding.code)
    out: list[Finding] = []
    starts = _line_starts(text)
    for directive in found:
        silenced = set().union(*(at.get(line, set()) for line in directive.targets))
        if directive.codes is None:
            if directive.kind == "jaxfix" and judge_bare and not silenced:
                reasons = ["no finding on the line it covers"]
                out.append(_finding(text, starts, directive, reasons, keep=()))
            continue
        reasons, keep = [] if directive.codes else ["it names no code"], []
        for code in directive.codes:
            if code == UNUSED_CODE:
                keep.append(code)  # it silences this very report; judged by the suppression pass itself
            elif not known(code):
                reasons.append(f"`{code}` matches no rule")
            elif judged(code) and code not in silenced:
                reasons.append(f"no `{code}` finding on the line it covers")
            else:
                keep.append(code)
        if reasons:
            out.append(_finding(text, starts, directive, reasons, keep=tuple(keep)))
    return out


def _position(starts: list[int], offset: int) -> Position:
    line = bisect.bisect_right(starts, offset) - 1
    return Position(line + 1, offset - starts[line])


def _finding(text: str, starts: list[int], directive: Directive, reasons: list[str], keep: tuple[str, ...]) -> Finding:
    what = f"`# {directive.kind}{': ignore' if directive.kind == 'jaxfix' else ''}`"
    message = f"unused suppression {what}: " + "; ".join(reasons)
    return Finding(
        UNUSED_CODE,
        message,
        Span(_position(starts, directive.start), _position(starts, directive.end)),
        Fix(Applicability.SAFE, (_repair(text, starts, directive, keep),),
            "drop the codes that silence nothing" if keep or directive.foreign else "remove the comment"),
    )


def _rewritten(directive: Directive, keep: tuple[str, ...]) -> str:
    if directive.kind == "jaxfix":
        return f"# jaxfix: ignore[{', '.join(keep)}]"
    return f"# noqa: {', '.join((*directive.foreign, *keep))}"


def _repair(text: str, starts: list[int], directive: Directive, keep: tuple[str, ...]) -> Edit:
    """The edit that drops the unused codes, or the directive, or the whole comment (its line when alone)."""
    comment = text[directive.comment_start : directive.comment_end]
    head = comment[: directive.start - directive.comment_start]
    tail = comment[directive.end - directive.comment_start :]
    if keep or directive.foreign:
        return Edit(directive.start, directive.end, _rewritten(directive, keep))
    rest = (head.rstrip() + " " + tail.lstrip()).strip()
    if rest.lstrip("#").strip():
        if not rest.startswith("#"):
            rest = "# " + rest
        return Edit(directive.comment_start, directive.comment_end, rest)
    line_start = starts[directive.line - 1]
    if directive.alone:
        line_end = starts[directive.line] if directive.line < len(starts) else len(text)
        return Edit(line_start, line_end, "")
    before = text[line_start : directive.comment_start]
    return Edit(line_start + len(before.rstrip()), directive.comment_end, "")


# -- --add-noqa: directives for the findings that remain ---------------------------------------------


def add_directives(text: str, wanted: Iterable[tuple[int, str]]) -> tuple[str, list[int]]:
    """The text with a ``# jaxfix: ignore[CODES]`` for each (line, code), and the lines it could not mark.

    A line's existing ``# jaxfix: ignore[...]`` gains the codes; otherwise the
    directive goes at the line's end, or alone on a new line above it when the
    end is inside a string or after a backslash. A line neither way can hold
    (a string on both sides) is given back, unmarked.
    """
    by_line: dict[int, set[str]] = {}
    for line, code in wanted:
        by_line.setdefault(line, set()).add(code)
    if not by_line:
        return text, []
    tokens = _tokens(text)
    if tokens is None:
        return text, sorted(by_line)
    starts = _line_starts(text)
    lines = text.splitlines(keepends=True)
    # A line whose end is inside a string, or that continues with a backslash, cannot end in a comment;
    # a line that starts inside a string cannot have a comment put above it.
    inside_at_end: set[int] = set()
    inside_at_start: set[int] = set()
    open_fstrings: list[int] = []
    for token in tokens:
        spanned = None
        if token.type == tokenize.STRING:
            spanned = (token.start[0], token.end[0])
        elif token.type == _FSTRING_START:
            open_fstrings.append(token.start[0])
        elif token.type == _FSTRING_END and open_fstrings:
            spanned = (open_fstrings.pop(), token.end[0])
        if spanned is not None:
            inside_at_end.update(range(spanned[0], spanned[1]))
            inside_at_start.update(range(spanned[0] + 1, spanned[1] + 1))
    for number, line in enumerate(lines, 1):
        if line.rstrip("\r\n").endswith("\\"):
            inside_at_end.add(number)
    existing = {d.line: d for d in directives(text) if d.kind == "jaxfix" and d.codes is not None and not d.alone}
    edits: list[Edit] = []
    refused: list[int] = []
    for number in sorted(by_line):
        codes = by_line[number]
        if number > len(lines):
            refused.append(number)
            continue
        directive = existing.get(number)
        if directive is not None:
            merged = sorted(set(directive.codes or ()) | codes)
            edits.append(Edit(directive.start, directive.end, f"# jaxfix: ignore[{', '.join(merged)}]"))
            continue
        comment = f"# jaxfix: ignore[{', '.join(sorted(codes))}]"
        body = lines[number - 1]
        content = body.rstrip("\r\n")
        if number not in inside_at_end:
            at = starts[number - 1] + len(content.rstrip())
            edits.append(Edit(at, starts[number - 1] + len(content), f"  {comment}"))
        elif number not in inside_at_start and (number == 1 or number - 1 not in inside_at_end):
            indent = content[: len(content) - len(content.lstrip())]
            newline = body[len(content) :] or "\n"
            edits.append(Edit(starts[number - 1], starts[number - 1], f"{indent}{comment}{newline}"))
        else:
            refused.append(number)
    for edit in sorted(edits, reverse=True):
        text = text[: edit.start] + edit.content + text[edit.end :]
    return text, refused


#: Python 3.12 tokenizes f-strings in parts; before, an f-string is one STRING token.
_FSTRING_START = getattr(tokenize, "FSTRING_START", -1)
_FSTRING_END = getattr(tokenize, "FSTRING_END", -1)
