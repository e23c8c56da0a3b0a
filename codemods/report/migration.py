"""``--report FILE.md``: the migration as Markdown for the pull request that lands it.

Per rule, what was fixed and where; each dependency a fix added (a finding's
note ``adds `from frozendict import frozendict```: a module outside the
standard library); a checklist of what needs a person (findings left, with
their options; unsafe fixes not applied; files that could not be read); and
the command that reproduces the run. Links are ``path#Lnn`` relative to the
repository root, lines as they read after the migration, so they point into
the pull request's version of each file.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from jaxfix.transforms import RULES, Applicability, Finding

from ..engine import FileResult, RunResult
from ..rule_docs import help_uri

#: A note that says a fix adds an import (the rules' wording), and the package it names, if it does.
_ADDS = re.compile(r"adds `(?P<statement>[^`]+)`(?:: the `(?P<package>[^`]+)` package becomes a dependency)?")
_IMPORTED = re.compile(r"^\s*(?:from\s+(?P<from>[\w.]+)\s+import|import\s+(?P<import>[\w.]+))")


@dataclass(frozen=True)
class Dependency:
    package: str
    statement: str
    places: tuple[str, ...]


def dependencies(items: Iterable[tuple[str, Finding]]) -> list[Dependency]:
    """The packages outside the standard library that applied fixes import, with where (links)."""
    found: dict[str, tuple[str, list[str]]] = {}
    for link, finding in items:
        for note in finding.notes:
            for match in _ADDS.finditer(note):
                statement = match.group("statement")
                package = match.group("package") or _top_module(statement)
                if package is None or package in sys.stdlib_module_names:
                    continue
                found.setdefault(package, (statement, []))[1].append(link)
    return [Dependency(package, statement, tuple(places)) for package, (statement, places) in sorted(found.items())]


def _top_module(statement: str) -> str | None:
    match = _IMPORTED.match(statement)
    if not match:
        return None
    return (match.group("from") or match.group("import")).split(".")[0]


def _line_map(before: str, after: str):
    """A function from a line of `before` to the line that holds it (or replaced it) in `after`."""
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    opcodes = matcher.get_opcodes()

    def moved(line: int) -> int:
        index = line - 1
        for tag, i1, i2, j1, j2 in opcodes:
            if i1 <= index < i2 or (tag == "insert" and index == i1):
                if tag == "equal":
                    return j1 + (index - i1) + 1
                return min(j1 + (index - i1), max(j1, j2 - 1)) + 1
        return line

    return moved


class _Places:
    """Links relative to the repository root, lines after the migration."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._maps: dict[int, object] = {}

    def path(self, result: FileResult) -> str:
        absolute = Path(os.path.abspath(result.path))
        try:
            return absolute.relative_to(self.root).as_posix()
        except ValueError:
            return absolute.as_posix()

    def link(self, result: FileResult, line: int, *, moved: bool) -> str:
        path = self.path(result)
        if result.cells:  # a notebook: the line is in its cells' module; link the file, name the cell
            return f"[{path}:{result.location(line)}]({_escape_url(path)})"
        if moved and result.changed:
            line = self._map(result)(line)
        return f"[{path}:{line}]({_escape_url(path)}#L{line})"

    def _map(self, result: FileResult):
        key = id(result)
        if key not in self._maps:
            self._maps[key] = _line_map(result.original, result.fixed)
        return self._maps[key]


def _escape_url(path: str) -> str:
    return path.replace(" ", "%20").replace("(", "%28").replace(")", "%29")


def _escape(text: str) -> str:
    """Text safe in a Markdown list item (no stray emphasis, no HTML)."""
    return re.sub(r"([\\*_\[\]<>|])", r"\\\1", text).replace("\n", " ")


def _message(text: str) -> str:
    """A finding's message: `code` spans kept (they are code), the rest escaped."""
    parts = re.split(r"(`[^`]*`)", text)
    return "".join(part if part.startswith("`") and part.endswith("`") else _escape(part) for part in parts)


def _rule_heading(code: str, count: int, verb: str) -> str:
    rule = RULES.get(code)
    name = f" {rule.name}" if rule else ""
    uri = help_uri(code)
    title = f"[{code}{name}]({uri})" if uri else f"{code}{name}"
    return f"#### {title}: {count} {verb}"


def render(run: RunResult, *, root: Path, command: str, version: str, applied: bool) -> str:
    """The report; `applied`: the fixes were written (migrate), else shown (diff)."""
    places = _Places(root)
    verb = "fixed" if applied else "would be fixed"
    fixed = [(r, f) for r in run.files if not r.error for f in r.applied]
    changed = [r for r in run.files if r.changed]
    left = run.findings
    out = ["## jaxfix migration", ""]
    summary = (
        f"jaxfix {version} {'fixed' if applied else 'would fix'} **{len(fixed)}** "
        f"finding{'s' if len(fixed) != 1 else ''} in **{len(changed)}** file{'s' if len(changed) != 1 else ''}"
    )
    needs = len(left) + len(run.errors)
    summary += f"; **{needs}** need{'s' if needs == 1 else ''} a person." if needs else "; nothing needs a person."
    out += [summary, ""]

    if fixed:
        out += ["### Fixed", ""]
        for code in sorted({f.code for _, f in fixed}):
            items = [(r, f) for r, f in fixed if f.code == code]
            out += [_rule_heading(code, len(items), verb), ""]
            for result, finding in items:
                how = f" ({finding.fix.applicability.value} fix)" if finding.fix else ""
                out.append(f"- {places.link(result, finding.line, moved=True)}: {_message(finding.message)}{how}")
            out.append("")

    added = dependencies((places.link(r, f.line, moved=True), f) for r, f in fixed)
    out += ["### New dependencies", ""]
    if added:
        out.append("Add these to the project's dependencies before merging:")
        out.append("")
        for dependency in added:
            where = ", ".join(dependency.places)
            out.append(f"- `{dependency.package}` (`{dependency.statement}`), imported by the fix at {where}")
    else:
        out.append("None: the fixes import only the standard library and what the code already used.")
    out.append("")

    out += ["### Needs a person", ""]
    if not needs:
        out += ["Nothing: every finding was fixed." if applied else "Nothing: every finding has a fix.", ""]
    for result, finding in left:
        rule = RULES.get(finding.code)
        name = f" {rule.name}" if rule else ""
        line = f"- [ ] {places.link(result, finding.line, moved=False)} **{finding.code}**{name}: {_message(finding.message)}"
        if finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE:
            line += " (an unsafe fix is offered: review it, then `jaxfix migrate --unsafe-fixes`)"
        out.append(line)
        out += [f"  - {_message(note)}" for note in finding.notes]
    for result in run.errors:
        out.append(f"- [ ] `{places.path(result)}`: not processed: {_escape(result.error or 'error')}")
    if needs:
        out.append("")

    out += ["### Reproduce", "", "```sh", command, "```", ""]
    return "\n".join(out)
