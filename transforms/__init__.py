"""jaxfix's rules as pure functions of source text: no files, no CLI.

    check_source(text, options) -> findings on that text, each with its fix
    fix_source(text, options)   -> FixResult(text, findings left, fixes applied)

fix_source applies every compatible fix, re-checks, and repeats until nothing
is left to apply (as ruff does): a fix skipped because it overlaps another is
found again on the next pass. It must converge; if it does not, that is a bug
in a rule and it raises rather than returning half-fixed text.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from jaxfix.transforms.core import fix_guard, stdlib_ast
from jaxfix.transforms.core.findings import Applicability, Edit, Finding, Fix, Position, Span
from jaxfix.transforms.core.gcpause import collector_paused
from jaxfix.transforms.core.lazy import lazy
from jaxfix.transforms.core.options import Options, SourceError
from jaxfix.transforms.core.parse_guard import refuse_deep
from jaxfix.transforms.core.rule import Haystack, Rule
from jaxfix.transforms.core.suppression import UNUSED_CODE, directives, is_suppressed, suppressions, unused
from jaxfix.transforms.core.textedit import LineIndex, apply_edits, select_compatible
from jaxfix.transforms.gate.slicing import slice_source

if TYPE_CHECKING:
    from jaxfix.transforms.project.repository import Project

# Loaded on first use (core/lazy.py): libcst, the rules and the semantic model are most of
# jaxfix's start-up, and a file the byte pre-filter drops needs none of them.
cst = lazy("libcst")
screen = lazy("jaxfix.transforms.gate.screen")
rule_classes = lazy("jaxfix.transforms.rules")
semantic_analysis = lazy("jaxfix.transforms.semantics.analysis")
semantic_module = lazy("jaxfix.transforms.semantics.module")
expected_errors = lazy("jaxfix.transforms.semantics.expected_errors")

__all__ = [
    "RULES",
    "Applicability",
    "Edit",
    "Finding",
    "Fix",
    "FixResult",
    "Options",
    "Position",
    "Rule",
    "SourceError",
    "Span",
    "CheckResult",
    "check",
    "check_source",
    "fix_source",
    "preload_analysis",
    "selected_rules",
]


@functools.cache
def _rules_by_code() -> dict[str, type[Rule]]:
    return {rule.code: rule for rule in sorted(rule_classes.ALL_RULES, key=lambda r: r.code)}


def __getattr__(name: str):
    """`RULES` (every rule, by code, in code order) is made when first read: it imports the rules."""
    if name == "RULES":
        return _rules_by_code()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


MAX_PASSES = 10


def preload_analysis() -> None:
    """Import libcst, the rules and the semantic model now (they load on first use otherwise):
    processes forked after this inherit them instead of each importing them again."""
    _rules_by_code()
    for module in (cst, screen, semantic_analysis, semantic_module, expected_errors):
        module.__name__  # noqa: B018  # reading an attribute imports it


def _matches(code: str, prefixes: frozenset[str]) -> bool:
    return any(code.startswith(p) for p in prefixes)


def selected_rules(options: Options) -> list[type[Rule]]:
    rules = list(_rules_by_code().values())
    if options.select is not None:
        rules = [r for r in rules if _matches(r.code, options.select)]
    return [r for r in rules if not _matches(r.code, options.ignore)]


@collector_paused
def parse(text: str) -> cst.Module:
    refuse_deep(text)  # libcst's parser dies (SIGSEGV) or takes minutes on deep nesting
    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError as error:
        raise _syntax_error(text, error) from None
    except (RecursionError, MemoryError) as error:  # pathological nesting
        raise SourceError(f"cannot parse: {type(error).__name__}") from None


def _syntax_error(text: str, error: cst.ParserSyntaxError) -> SourceError:
    """Python's own description of the error (libcst's positions can be off), else libcst's."""
    try:
        ast.parse(text)
    except SyntaxError as python_error:
        return SourceError(f"syntax error: {python_error.msg}", python_error.lineno, python_error.offset)
    except (ValueError, RecursionError, MemoryError):
        pass
    return SourceError(f"libcst cannot parse this: {error.message}", error.raw_line, error.raw_column)


def candidate_rules(text: str, options: Options, project: Project | None = None) -> list[type[Rule]]:
    """The selected rules that may match: the text pre-filter, then the ast screen."""
    return list(_screened(text, options, project)[0])


def _prefiltered(text: str, options: Options, project: Project | None) -> list[type[Rule]]:
    # Asked only when a rule's own words are absent: the test reads every import of the file.
    imports_static = functools.cache(lambda: project is not None and project.may_use_static_jitted(text))
    haystack = Haystack(text)
    # JAX001 is no analysis: `_unused_suppressions` runs after the others.
    return [r for r in selected_rules(options) if r.code != UNUSED_CODE and r.may_match(haystack, imports_static)]


def _screened(text: str, options: Options, project: Project | None = None) -> tuple[dict[type[Rule], list], object]:
    """{rule: its seed nodes} for rules that may match, and the stdlib ast (None if unparsable)."""
    rules = _prefiltered(text, options, project)
    if not rules:
        return {}, None
    tree = stdlib_ast.parse(text)
    if tree is None:
        return {r: [] for r in rules}, None  # libcst will report the syntax error
    facts = screen.Facts(tree, text, project)
    if facts.respells_api_names:
        return {r: [tree] for r in rules}, tree  # the whole module: the screens match names as spelled
    seeded = {r: r.seeds(facts) for r in rules}
    return {r: s for r, s in seeded.items() if s}, tree


@dataclass(frozen=True)
class CheckResult:
    findings: list[Finding]
    #: libcst ran (the pre-filter and the screen let the file through).
    parsed: bool
    #: Findings in code that expects their error (a test watching it fail): not reported
    #: unless `Options.expected_errors`, only counted.
    expected: tuple[Finding, ...] = ()


def check(
    text: str, options: Options | None = None, *, narrow: bool = True, project: Project | None = None
) -> CheckResult:
    """Findings for one module's text, suppressions applied, in source order.

    `narrow=False` skips the ast screen and the slicing (every rule that passes
    the text pre-filter runs on the whole module): the reference the tests
    hold the fast path to. `project` lets rules follow imports into the
    project's other modules (`repository`).
    """
    options = options or Options()
    if narrow:
        seeded, tree = _screened(text, options, project)
    else:
        seeded, tree = {r: [] for r in _prefiltered(text, options, project)}, None
    if not seeded:
        unused_here = _unused_suppressions(text, [], options)
        return CheckResult(_guarded(text, unused_here, fix_guard.builtins_of(options.target_version)), False)
    piece = None
    if tree is not None:
        seeds = [s for found in seeded.values() for s in found]
        callee_seeds = [s for rule, found in seeded.items() if rule.follows_callees for s in found]
        piece = slice_source(text, tree, seeds, callee_seeds)
    analysed = piece.text if piece is not None else text
    try:
        module = parse(analysed)
    except SourceError as error:
        if piece is None or not error.line:
            raise
        raise SourceError(str(error), piece.original_line(error.line), error.column) from None  # the file's line
    context = semantic_module.ModuleContext(
        analysed,
        module,
        options,
        piece.original_line if piece else None,
        project.repo if project is not None else None,
        project.ref if project is not None else None,
    )
    analysis = semantic_analysis.Analysis(context)
    silenced = suppressions(text)
    raw = [f for rule in seeded for f in rule().check(analysis)]
    findings = [f for f in raw if not is_suppressed(silenced, f.line, f.code)]
    findings, expected = expected_errors.split_expected(
        context, findings, analysis.traces.routes, keep_expected=options.expected_errors
    )
    if piece is not None and analysed != text:
        findings = [_moved(f, LineIndex(analysed), LineIndex(text), piece.original_line) for f in findings]
    findings += _unused_suppressions(text, raw, options)
    findings = _without_subsumed(_guarded(text, findings, fix_guard.builtins_of(options.target_version)))
    return CheckResult(sorted(findings, key=Finding.sort_key), True, tuple(sorted(expected, key=Finding.sort_key)))


def _without_subsumed(findings: list[Finding]) -> list[Finding]:
    """One bug, one finding: a fix whose edits another finding's fix already makes (JAX102 makes
    `k` static on the enclosing jit; JAX302 would make the same edit for a size `k` reaches) is
    the same repair, so its finding becomes a note on the wider one."""
    fixed = [f for f in findings if f.fix is not None and f.fix.edits]
    dropped: dict[int, Finding] = {}
    for small in fixed:
        for wide in fixed:
            if wide is small or id(wide) in dropped:
                continue
            if set(small.fix.edits) <= set(wide.fix.edits) and (  # type: ignore[union-attr]
                len(wide.fix.edits) > len(small.fix.edits) or Finding.sort_key(wide) < Finding.sort_key(small)  # type: ignore[union-attr]
            ):
                dropped[id(small)] = wide
                break
    if not dropped:
        return findings
    notes: dict[int, list[str]] = {}
    for small_id, wide in dropped.items():
        small = next(f for f in findings if id(f) == small_id)
        notes.setdefault(id(wide), []).append(f"the same fix resolves {small.code} on line {small.line}: {small.message}")
    return [
        replace(f, notes=(*f.notes, *notes.get(id(f), ()))) if id(f) in notes else f
        for f in findings
        if id(f) not in dropped
    ]


def _unused_suppressions(text: str, raw: list[Finding], options: Options) -> list[Finding]:
    """JAX001 for the text's directives, judged by the raw (unsuppressed) findings of the rules that ran.

    A selected rule the pre-filter or the screen left out ran as surely as one
    that was analysed: the gate is exactly as tight as the rules.
    """
    if not any(r.code == UNUSED_CODE for r in selected_rules(options)):
        return []
    judged = {r.code for r in selected_rules(options)}
    found = unused(
        text, raw, known=_rules_by_code().__contains__, judged=judged.__contains__, judge_bare=len(judged) == len(_rules_by_code())
    )
    # Only a directive naming JAX001 silences one: a bare one would silence its own report.
    named = {line for d in directives(text) if d.codes and UNUSED_CODE in d.codes for line in d.targets} if found else ()
    return [f for f in found if f.line not in named]


def _guarded(text: str, findings: list[Finding], always_bound: frozenset[str]) -> list[Finding]:
    """Every fix held to `fix_guard`: one whose program does not compile, or reads a name
    that nothing binds where it lands, becomes a report saying so."""
    if not any(f.fix is not None for f in findings):
        return findings
    before = fix_guard.unbound_reads(text, always_bound)
    out = []
    for finding in findings:
        if finding.fix is None:
            out.append(finding)
            continue
        fixed = apply_edits(text, [e for e in finding.fix.edits if not e.file])
        unbound = fix_guard.new_unbound_reads(before, fixed, always_bound)
        if unbound == []:
            out.append(finding)
            continue
        why = (
            "the rewritten module would not compile"
            if unbound is None
            else f"the rewrite would read {', '.join(f'`{n}`' for n in unbound)} where no such name is bound"
        )
        out.append(replace(finding, message=f"{finding.message}; not rewritten: {why}", fix=None, notes=()))
    return out


def check_source(text: str, options: Options | None = None) -> list[Finding]:
    """Findings for one module's text, suppressions applied, in source order."""
    return check(text, options).findings


def _moved(finding: Finding, sliced: LineIndex, original: LineIndex, line_of) -> Finding:
    """The finding with its edits' offsets taken from the slice to the original text."""
    if finding.fix is None:
        return finding

    def move(offset: int) -> int:
        pos = sliced.position(offset)
        return original.offset(line_of(pos.line), pos.column)

    edits = tuple(e if e.file else Edit(move(e.start), move(e.end), e.content) for e in finding.fix.edits)
    return replace(finding, fix=replace(finding.fix, edits=edits))


def allowed(fix: Fix | None, options: Options) -> bool:
    return fix is not None and (fix.applicability is Applicability.SAFE or options.unsafe_fixes)


@dataclass(frozen=True)
class FixResult:
    text: str
    #: Findings on the fixed text: what is left for a person.
    findings: tuple[Finding, ...]
    #: Findings whose fixes were applied, each on the text of its own pass.
    applied: tuple[Finding, ...]
    parsed: bool = False
    #: Edits the applied fixes make in other files of the project (Edit.file set).
    remote: tuple[Edit, ...] = ()
    #: Findings set apart in code that expects their error (see `CheckResult.expected`).
    expected: tuple[Finding, ...] = ()

    def __iter__(self):
        """Unpacks as (text, findings), the shape DESIGN.md gives fix_source."""
        return iter((self.text, self.findings))

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def fix_source(
    text: str, options: Options | None = None, *, project: Project | None = None, checked: CheckResult | None = None
) -> FixResult:
    """Apply every allowed fix, pass after pass, until none is left.

    A fix that also edits other files (Edit.file) applies its edits here and
    hands the others back in `remote`, for the engine to apply to those files;
    until then the finding stays, so it is counted once and not applied again.
    `checked`, when a caller already has it, is `check(text, options, project=project)`:
    the first pass starts from it instead of checking the same text again (the
    check never reads `unsafe_fixes`, so a check under either setting serves).
    """
    options = options or Options()
    applied: list[Finding] = []
    remote: list[Edit] = []
    parsed = False
    for _ in range(MAX_PASSES):
        result = checked if checked is not None else check(text, options, project=project)
        checked = None
        parsed = parsed or result.parsed
        taken = set(remote)
        fixable = [
            f
            for f in result.findings
            if allowed(f.fix, options) and any(not e.file or e not in taken for e in f.fix.edits)  # type: ignore[union-attr]
        ]
        if not fixable:
            left = tuple(
                f for f in result.findings if not (f.fix and allowed(f.fix, options) and f.fix.edits and set(f.fix.edits) <= taken)
            )
            return FixResult(text, left, tuple(applied), parsed, tuple(remote), result.expected)
        chosen = select_compatible([f.fix for f in fixable])  # type: ignore[misc]
        chosen_ids = {id(fix) for fix in chosen}
        edits = [e for fix in chosen for e in fix.edits]
        text = apply_edits(text, [e for e in edits if not e.file])
        remote.extend(e for e in edits if e.file and e not in remote)
        applied.extend(f for f in fixable if id(f.fix) in chosen_ids)
    raise RuntimeError(f"fixes did not converge after {MAX_PASSES} passes")
