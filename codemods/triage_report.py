"""``jaxfix explain --traceback``: from a pasted error to the finding and the fix at the user's line.

The pitfall is recognised from the message (`triage.recognise`); the
traceback's frames in the user's code are tried innermost first: each file
is read, the rules run on it, and findings of the pitfall's rules whose span
covers the frame's line are shown with their fix as a diff. When no frame has
one, findings of those rules elsewhere in the innermost file are shown; when
there are none, the pitfall is named with why no rewrite applies and what to
try. Exit codes: 0 the pitfall was recognised (with or without a rewrite),
1 the text is not an error jaxfix knows, 2 the input cannot be read.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace
from pathlib import Path

from jaxfix.transforms import Applicability, Finding, Options, SourceError, check_source
from jaxfix.transforms.core.textedit import LineIndex, apply_edits

from . import config
from .report.diff import display_path, unified_diff
from .sourcefile import InputError, read
from .triage import Frame, Pitfall, frames, origins, recognise, unquoted, user_frames


@dataclass(frozen=True)
class Located:
    frame: Frame
    path: Path
    text: str
    findings: tuple[Finding, ...]


def explain_traceback(text: str, base: Path | None = None) -> tuple[list[str], int]:
    """The report's lines, and the exit code."""
    text = unquoted(text)
    pitfall = recognise(text)
    if pitfall is None:
        return [
            "This is not an error jaxfix knows: it recognises \"Non-hashable static arguments are not supported\", "
            "ConcretizationTypeError and its relatives (\"Abstract tracer value encountered where concrete value is "
            "expected\", TracerIntegerConversionError, TracerBoolConversionError), and the shape and slice errors "
            "a tracer causes."
        ], 1
    out = [f"Pitfall: {pitfall.title}", *(f"    {line}" for line in pitfall.evidence.splitlines()), pitfall.explanation]
    mine = user_frames(frames(text, pitfall.position))
    made_at = origins(text, pitfall.position)
    if not mine:
        out.append("No frame of your code is in the traceback, so there is no line to check.")
        out.extend(_options(pitfall))
        return out, 0
    located: list[Located] = []
    unreadable: list[str] = []
    for frame in mine:
        found = _locate(frame, base)
        if isinstance(found, str):
            unreadable.append(found)
            continue
        located.append(found)
        lines = _lines_to_check(found, made_at)
        at_line = _at_line(found, pitfall, lines)
        if at_line:
            out.append(f"Your code: {display_path(found.path)}:{frame.line}, in {frame.function}")
            out.append(f"    {LineIndex(found.text).line_text(frame.line).strip()}")
            for line in sorted(_origin_lines(found, made_at) - {frame.line}):
                out.append(f"    the value became a tracer on line {line}: {LineIndex(found.text).line_text(line).strip()}")
            for finding in at_line:
                out.extend(_finding_lines(found, finding))
            if all(f.fix is None for f in at_line):
                fixes = _fixes_naming(found, pitfall, lines, at_line)
                if fixes:
                    out.append("A fix elsewhere in the file removes the cause:")
                    for finding in fixes:
                        out.extend(_finding_lines(found, finding))
            return out, 0
    out.extend(f"note: {reason}" for reason in unreadable)
    if located:
        first = located[0]
        out.append(f"Your code: {display_path(first.path)}:{first.frame.line}, in {first.frame.function}")
        out.append(f"    {LineIndex(first.text).line_text(first.frame.line).strip()}")
        elsewhere = [f for f in first.findings if f.code in pitfall.codes]
        if elsewhere:
            out.append(f"No rule finds this pitfall at that line; in the same file, jaxfix finds {len(elsewhere)} related finding(s):")
            for finding in elsewhere:
                out.extend(_finding_lines(first, finding))
            return out, 0
        out.append(
            f"No rewrite applies: no rule ({', '.join(pitfall.codes)}) finds this pitfall in "
            f"{display_path(first.path)}. The value behind it cannot be followed from this file (it comes from "
            "another module, an attribute or a call's result), or the code is not a form jaxfix rewrites."
        )
    out.extend(_options(pitfall))
    return out, 0


def _options(pitfall: Pitfall) -> list[str]:
    return [f"    option: {option}" for option in pitfall.options]


def _locate(frame: Frame, base: Path | None) -> Located | str:
    if frame.in_notebook_cell:
        return (
            f"{frame.path}, line {frame.line} is a notebook cell, and the traceback does not say which notebook: "
            "run `jaxfix check NOTEBOOK.ipynb` on it"
        )
    given = Path(frame.path).expanduser()
    candidates = [given] if given.is_absolute() else [Path.cwd() / given, *([base / given] if base else [])]
    if base is not None:
        candidates.append(base / given.name)
    path = next((p for p in candidates if p.is_file()), None)
    if path is None:
        return f"cannot find {frame.path} (line {frame.line}) to check it"
    try:
        _, source = read(path)
    except InputError as error:
        return f"cannot read {display_path(path)}: {error}"
    try:
        findings = check_source(source.text, _options_for(path))
    except SourceError as error:
        return f"cannot parse {display_path(path)}: {error}"
    except RecursionError:
        return f"cannot analyse {display_path(path)}: too deeply nested"
    return Located(frame, path, source.text, tuple(findings))


def _options_for(path: Path) -> Options:
    """The file's [tool.jaxfix] settings, all rules selected: triage looks for every pitfall."""
    try:
        ((resolved, _),) = config.plan([path], config.Settings())
    except config.ConfigError:
        return Options()
    return replace(resolved.options, select=None, ignore=frozenset())


def _lines_to_check(found: Located, made_at: list[Frame]) -> set[int]:
    """The frame's line, and the lines of the same file the message says made the value a tracer,
    each grown to the whole statement holding it (a finding may sit on another line of a call
    that spans several, issue 17.7)."""
    lines = {found.frame.line} | _origin_lines(found, made_at)
    statements = _statement_lines(found.text)
    return {other for line in lines for other in statements.get(line, (line,))}


def _origin_lines(found: Located, made_at: list[Frame]) -> set[int]:
    """The lines of this file the message says made the value a tracer."""
    return {o.line for o in made_at if o.path == found.frame.path or _same_file(Path(o.path), found.path)}


def _statement_lines(text: str) -> dict[int, tuple[int, ...]]:
    """line -> every line of the innermost statement holding it (a compound statement's header only)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    spans: list[tuple[int, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            last = node.end_lineno or node.lineno
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                last = max(node.lineno, body[0].lineno - 1)  # the header: `for ... in f(\n x):`
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
            spans.append((first, last))
    out: dict[int, tuple[int, ...]] = {}
    for first, last in sorted(spans, key=lambda s: s[1] - s[0], reverse=True):  # inner statements win
        for line in range(first, last + 1):
            out[line] = tuple(range(first, last + 1))
    return out


def _same_file(given: Path, path: Path) -> bool:
    try:
        return given.is_file() and given.resolve() == path.resolve()
    except OSError:
        return False


def _at_line(found: Located, pitfall: Pitfall, lines: set[int]) -> list[Finding]:
    covering = [f for f in found.findings if any(f.span.start.line <= line <= f.span.end.line for line in lines)]
    ours = [f for f in covering if f.code in pitfall.codes]
    return sorted(ours, key=lambda f: pitfall.codes.index(f.code))


def _fixes_naming(found: Located, pitfall: Pitfall, lines: set[int], shown: list[Finding]) -> list[Finding]:
    """Findings with a fix elsewhere in the file that name one of the lines ("the call on line 15 passes"):
    JAX403 drops an array from the static list at the def, while the error is raised at the call."""
    named = re.compile(r"\bline (?:%s)\b" % "|".join(str(line) for line in sorted(lines)))
    return [
        f
        for f in found.findings
        if f.code in pitfall.codes and f.fix is not None and f not in shown and named.search(f.message)
    ]


def _finding_lines(found: Located, finding: Finding) -> list[str]:
    where = f"{display_path(found.path)}:{finding.span.start.line}:{finding.span.start.column + 1}"
    lines = [f"{where}: {finding.code} {finding.message}", *(f"    note: {note}" for note in finding.notes)]
    if finding.fix is None:
        lines.append(f"No rewrite: {finding.code} reports this one; the notes above give the options.")
        return lines
    kind = "safe" if finding.fix.applicability is Applicability.SAFE else "unsafe: applied only with --unsafe-fixes"
    lines.append(f"Fix ({kind}), `jaxfix diff {display_path(found.path)}` shows it with the others:")
    fixed = apply_edits(found.text, list(finding.fix.edits))
    lines.extend(unified_diff(found.text, fixed, found.path).rstrip("\n").splitlines())
    return lines
