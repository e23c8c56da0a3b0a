"""One pull-request review comment per finding: a ```suggestion when GitHub can apply it.

A suggestion replaces whole lines, so it covers exactly the lines the fix's
edits touch, with those lines as they read after the fix. GitHub only
accepts it on lines of the pull request's diff, and a reviewer can only
judge it there, so it is offered when those lines are one run of lines the
branch changed. A fix that reaches further (an import added at the top, the
enclosing jit's decorator) becomes a plain comment carrying the whole fix as
a diff: split into several suggestions, committing one without the others
would leave broken code. So does a fix jaxfix would not apply on its own
(unsafe, without ``--unsafe-fixes``), since a one-click button would apply
it all the same.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
from dataclasses import dataclass, replace
from pathlib import Path

from jaxfix.transforms import RULES, Applicability, Edit, Finding
from jaxfix.transforms.core.textedit import LineIndex, apply_edits

from ..report.diff import unified_diff

SUGGESTION = "suggestion"
DIFF = "diff"
NOTE = "note"


@dataclass(frozen=True)
class ReviewComment:
    path: str  # repository-relative, with / separators
    line: int  # the last line the comment covers
    start_line: int | None  # the first, for a comment on several lines
    body: str
    fingerprint: str
    kind: str  # SUGGESTION, DIFF or NOTE
    code: str

    def api(self) -> dict:
        """The comment as GitHub's "create a review" endpoint takes it."""
        record: dict = {"path": self.path, "line": self.line, "side": "RIGHT", "body": self.body}
        if self.start_line is not None and self.start_line != self.line:
            record["start_line"] = self.start_line
            record["start_side"] = "RIGHT"
        return record


def fence_for(content: str, info: str) -> tuple[str, str]:
    """Opening and closing fences longer than any run of backticks in content."""
    longest = max((len(run) for run in re.findall(r"`+", content)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}", fence


def _normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def replaced_lines(index: LineIndex, edits: tuple[Edit, ...]) -> set[int]:
    """Every line an edit touches (an edit that ends at a line start stops before that line)."""
    lines: set[int] = set()
    for edit in edits:
        first = index.position(edit.start).line
        end = index.position(edit.end)
        last = end.line - 1 if end.column == 0 and edit.end > edit.start else end.line
        lines.update(range(first, max(first, last) + 1))
    return lines


def suggested_lines(text: str, index: LineIndex, edits: tuple[Edit, ...], first: int, last: int) -> str | None:
    """Lines first..last as they read after the edits (line breaks as written), or None when the fix
    joins the last of them with the next line, which a suggestion of whole lines cannot say."""
    start = index.line_start(first)
    end = index.line_start(last + 1) if last < index.line_count else len(text)
    region = text[start:end]
    shifted = [Edit(e.start - start, e.end - start, e.content) for e in edits]
    replaced = apply_edits(region, shifted)
    ends_with_break = region.endswith(("\n", "\r"))
    if ends_with_break and replaced and not replaced.endswith(("\n", "\r")):
        return None  # the fix joins the last line with the next one
    return replaced


@dataclass(frozen=True)
class LineRun:
    """A fix said as one replacement of whole lines: lines first..last (inclusive) become text."""

    first: int
    last: int
    #: The lines as they read after the fix, with the file's own line breaks (the last one included).
    text: str


def line_run(text: str, index: LineIndex, edits: tuple[Edit, ...]) -> LineRun | None:
    """The fix as one unbroken run of whole lines, or None when it cannot be one.

    The one rule for every one-click suggestion (review's ```suggestion blocks,
    rdjson's suggestions): the lines the edits touch must be one run, and the
    fix must not join the last of them with the next line. A fix split over
    separate places is never suggested in parts: committing a ``partial(...)``
    without its import would break the code.
    """
    replaced = replaced_lines(index, edits)
    if not replaced:
        return None
    first, last = min(replaced), max(replaced)
    if len(replaced) != last - first + 1:
        return None
    lines = suggested_lines(text, index, edits, first, last)
    return None if lines is None else LineRun(first, last, lines)


def fingerprint(path: str, finding: Finding, index: LineIndex) -> str:
    """Stable across pushes that only move the code: path, rule, message and the lines' text."""
    lines = "\n".join(
        index.line_text(n).strip() for n in range(finding.span.start.line, finding.span.end.line + 1)
    )
    digest = hashlib.sha256("\0".join((path, finding.code, finding.message, lines)).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:16]


def _heading(finding: Finding) -> str:
    rule = RULES.get(finding.code)
    name = f" `{rule.name}`" if rule else ""
    notes = "".join(f"\n- {note}" for note in finding.notes)
    return f"**jaxfix {finding.code}**{name}: {finding.message}{notes}"


def _elsewhere(path, text, finding, others, anchor, heading, footer, mark, allowed) -> ReviewComment:
    """A fix that edits other files of the project: a comment with the diff of each file."""
    fix = finding.fix
    parts = [heading, "This fix changes other files of the project, so it is shown rather than suggested:"]
    local = [e for e in fix.edits if not e.file]
    if local:
        patch = _normalise_newlines(unified_diff(text, apply_edits(text, local), Path(path)))
        opening, closing = fence_for(patch, "diff")
        parts.append(f"{opening}\n{patch}{closing}")
    for other in others:
        edits = [replace(e, file="") for e in fix.edits if e.file == other]
        try:
            before = Path(other).read_text(encoding="utf-8")
        except OSError:
            parts.append(f"and `{other}`, which cannot be read here")
            continue
        shown = _relative(other)
        patch = _normalise_newlines(unified_diff(before, apply_edits(before, edits), Path(shown)))
        opening, closing = fence_for(patch, "diff")
        parts.append(f"{opening}\n{patch}{closing}")
    how = f"jaxfix migrate {'--unsafe-fixes ' if not allowed else ''}{shlex.quote(path)}"
    body = "\n\n".join(parts) + f"\n\nApply it with `{how}`."
    return ReviewComment(path, anchor, None, body + footer, mark, DIFF, finding.code)


def _relative(path: str) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return path


def comment_for(
    path: str, text: str, finding: Finding, changed: frozenset[int], *, unsafe_fixes: bool
) -> ReviewComment | None:
    """The comment for a finding that touches a changed line; None for one that does not."""
    span_lines = set(range(finding.span.start.line, finding.span.end.line + 1))
    touched = sorted(span_lines & changed)
    if not touched:
        return None
    anchor = finding.span.start.line if finding.span.start.line in changed else touched[0]
    index = LineIndex(text)
    mark = fingerprint(path, finding, index)
    footer = f"\n\n<!-- jaxfix:finding {mark} -->"
    heading = _heading(finding)
    fix = finding.fix
    if fix is None:
        body = f"{heading}\n\nNo rewrite is provably right here; see `jaxfix explain {finding.code}`."
        return ReviewComment(path, anchor, None, body + footer, mark, NOTE, finding.code)
    allowed = fix.applicability is Applicability.SAFE or unsafe_fixes
    others = sorted({e.file for e in fix.edits if e.file})
    if others:
        return _elsewhere(path, text, finding, others, anchor, heading, footer, mark, allowed)
    replaced = replaced_lines(index, fix.edits)
    first, last = min(replaced), max(replaced)
    contiguous = len(replaced) == last - first + 1
    run = line_run(text, index, fix.edits)
    if allowed and run is not None and replaced <= changed:
        lines = _normalise_newlines(run.text)
        opening, closing = fence_for(lines, SUGGESTION)
        content = lines if lines.endswith("\n") or not lines else lines + "\n"
        parts = [heading, f"{opening}\n{content}{closing}", fix.description]
        if fix.applicability is Applicability.UNSAFE:
            parts.append("This fix is marked unsafe: check it before you commit it.")
        body = "\n\n".join(p for p in parts if p)
        return ReviewComment(path, run.last, run.first, body + footer, mark, SUGGESTION, finding.code)
    patch = _normalise_newlines(unified_diff(text, apply_edits(text, fix.edits), Path(path)))
    opening, closing = fence_for(patch, "diff")
    if not allowed:
        why = "This fix is marked unsafe, so it is shown rather than suggested:"
    elif not replaced <= changed:
        why = "This fix also changes lines this pull request does not, so it cannot be a suggestion:"
    elif not contiguous:
        why = "This fix changes separate places, and a suggestion can only replace one run of lines:"
    else:
        why = "This fix joins lines, which a suggestion of whole lines cannot express:"
    how = f"jaxfix migrate {'--unsafe-fixes ' if not allowed else ''}{shlex.quote(path)}"
    body = f"{heading}\n\n{why}\n\n{opening}\n{patch}{closing}\n\nApply it with `{how}`."
    return ReviewComment(path, anchor, None, body + footer, mark, DIFF, finding.code)
