"""Give libcst only the part of a big module that an analysis can depend on.

libcst's parse plus scope, parent and position metadata cost about seventy
times the standard library's ``ast.parse``; on a 400 KB test module that is
twelve seconds for one candidate call. The rules' analyses only look at the
code around their seed nodes (the calls the screen flagged), at the functions
those calls name, at every place that names them again (callers, mutations,
other uses), and at module-level statements. So before libcst runs, every
function or class that none of that can reach is replaced by a one-line stub
that keeps its name bound (``def f(): pass``). Kept lines keep their text, and
the slice records each line's original number, so positions and edits
computed on the slice map back to the original exactly.

What is kept, to a fixed point, with R the names that matter (functions,
classes, methods and module-level names that are defined in the module):

* every module-level statement that is not a def or class (imports,
  assignments, blocks), and the mentions of those whose target is in R;
* every def the seed-holding functions name, transitively (a rule may follow
  a value into a helper), for its body only; and so for every def a seed
  itself names, or a relevant name is bound to (``f(x, make_config())``,
  ``cfg = make_config()`` keep what ``make_config`` builds);
* every def or class (methods too) that holds a seed, is named in R, or
  mentions a name in R (a caller, a use), and then its name joins R (so its
  own callers are kept: whether a function runs traced is decided by them);
  a caller keeps the bodies of the defs it names too (it may hand on what a
  helper returns: ``relu(x - y)`` with ``x = getn(d)``), and so does a def
  named in R for a rule that follows values into callees;
* every def with a ``global`` statement (it can rebind module names);
* every def that mentions an attribute a seed reads and the module assigns
  (``self.config``: the ``__init__`` that builds it and every other reader);
* classes are descended into, kept or not: a class keeps its header and
  non-def lines (its bases, decorators and fields say how jit treats an
  instance, which kept code may build: a ``NamedTuple`` stubbed to a plain
  class read as an object jit cannot trace), and its methods are sliced
  like functions.

A unit "names" or "mentions" a name as a bare name, or as an attribute only
when the name is a class member's: the analyses resolve ``self.m`` to a
method, never ``x.f`` to a module-level ``f`` (`_resolve_references`).

Equivalence with analysing the whole module is tested on every golden case
and on the corpus run.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from jaxfix.transforms.core.containers import CHANGING_METHODS
from jaxfix.transforms.core.textedit import split_lines
from jaxfix.transforms.gate.astwalk import child_nodes

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _facts_of(node: ast.AST, skip: tuple[type, ...] = ()) -> tuple[set[str], set[str], bool]:
    """Names and attribute names the node mentions, and whether it has a ``global``.

    Statements of the `skip` types directly in a class body are left out: they
    are units of their own.
    """
    names: set[str] = set()
    attributes: set[str] = set()
    has_global = False
    if isinstance(node, ast.ClassDef):
        stack = [c for c in child_nodes(node) if not isinstance(c, skip)]
    else:
        stack = [node]
    Name, Attribute, Global = ast.Name, ast.Attribute, ast.Global
    while stack:
        inner = stack.pop()
        kind = type(inner)
        if kind is Name:
            names.add(inner.id)  # type: ignore[attr-defined]
            continue  # nothing inside but its context
        if kind is Attribute:
            attributes.add(inner.attr)  # type: ignore[attr-defined]
        elif kind is Global:
            has_global = True
        stack.extend(child_nodes(inner))
    return names, attributes, has_global


@dataclass(eq=False)
class _Unit:
    node: ast.stmt
    first: int  # first line, decorators included
    last: int
    name: str | None
    names: set[str]
    attributes: set[str]
    has_global: bool
    children: list[_Unit] = field(default_factory=list)
    kept: bool = False
    #: What the unit can refer to by name (see `_resolve_references`).
    references: set[str] = field(default_factory=set)

    @property
    def is_def(self) -> bool:
        return isinstance(self.node, _DEFS)


def _units(body: list[ast.stmt]) -> list[_Unit]:
    out = []
    for stmt in body:
        first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", []))])
        name = stmt.name if isinstance(stmt, _DEFS) else None
        last = stmt.end_lineno or stmt.lineno
        if isinstance(stmt, ast.ClassDef):
            unit = _Unit(stmt, first, last, name, *_facts_of(stmt, skip=_DEFS))
            unit.children = _units(stmt.body)
            for child in unit.children:
                if child.is_def:
                    unit.names |= child.names
                    unit.attributes |= child.attributes
        else:
            unit = _Unit(stmt, first, last, name, *_facts_of(stmt))
        out.append(unit)
    return out


def _resolve_references(units: list[_Unit]) -> set[str]:
    """The names of class members; and set each unit's references: the names it mentions, and the attribute
    names that name a member of a class.

    The analyses find what an attribute refers to only for ``self.m``, a
    method of the class (`callables`, `tracing`); ``x.f`` never refers to a
    module-level ``f``. Counting every attribute as a mention made a module of
    numpy-named functions (``x.reshape`` and ``def reshape``) keep nearly all
    of itself.
    """
    members = {c.name for u in _walk_units(units) for c in u.children if c.is_def}
    for unit in _walk_units(units):
        unit.references = unit.names | (unit.attributes & members)
    return members


def _walk_units(units: list[_Unit]):
    for unit in units:
        yield unit
        yield from _walk_units(unit.children)


def _targets(stmt: ast.stmt) -> set[str]:
    if isinstance(stmt, ast.Assign):
        return {n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and isinstance(stmt.target, ast.Name):
        return {stmt.target.id}
    return set()


@dataclass(frozen=True)
class Slice:
    """The text libcst will see, and for each of its lines the original line number."""

    text: str
    lines: tuple[int, ...]

    def original_line(self, line: int) -> int:
        return self.lines[line - 1] if line - 1 < len(self.lines) else self.lines[-1] + (line - len(self.lines))


def slice_source(
    text: str, tree: ast.Module, seeds: list[ast.AST], callee_seeds: list[ast.AST] | None = None
) -> Slice:
    """The text with unreachable defs and classes reduced to one-line stubs.

    `callee_seeds` (a subset of seeds, default all) are those whose functions'
    callees must be kept as well.
    """
    units = _units(tree.body)
    seed_lines = [(s.lineno, s.end_lineno or s.lineno) for s in seeds if hasattr(s, "lineno")]
    if len(seed_lines) != len(seeds):
        # A seed without a place (the module itself): keep everything.
        return Slice(text, tuple(range(1, len(split_lines(text)) + 1)))
    all_units = list(_walk_units(units))
    members = _resolve_references(units)
    defined = {u.name for u in all_units if u.name} | {n for u in units for n in _targets(u.node)}
    seed_names = set()
    for seed in seeds:
        names, attributes, _ = _facts_of(seed)
        seed_names |= names | (attributes & members)
    relevant = seed_names & defined
    # `GRID = make_grid()` at module level: what the name holds is what the helper returns
    # (`constants.helper_return`), which a rule may read wherever the name goes
    relevant |= {
        u.node.value.func.id
        for u in units
        if isinstance(u.node, ast.Assign) and isinstance(u.node.value, ast.Call) and isinstance(u.node.value.func, ast.Name)
        and not u.node.value.args and not u.node.value.keywords
    } & defined
    # `self.config` in a seed: the method that stores it (`__init__`) and every def that mentions it.
    attributes = _stored_attributes(tree) & {a for seed in seeds for a in _facts_of(seed)[1]}

    storing: list[_Unit] = []

    def holds_seed(unit: _Unit) -> bool:
        return any(unit.first <= a and b <= unit.last for a, b in seed_lines)

    for unit in all_units:
        if unit.is_def and (holds_seed(unit) or unit.has_global):
            unit.kept = True
            relevant.add(unit.name)  # type: ignore[arg-type]
        elif unit.is_def and not isinstance(unit.node, ast.ClassDef) and unit.attributes & attributes:
            unit.kept = True
            relevant.add(unit.name)  # type: ignore[arg-type]
            storing.append(unit)
    callee_lines = seed_lines if callee_seeds is None else [(s.lineno, s.end_lineno or s.lineno) for s in callee_seeds]
    follow_callees = bool(callee_lines)
    # The functions a seed itself names (`f(x, make_config())`) are callees too, wherever the seed is.
    named_by_seeds: set[str] = set()
    for seed in seeds if callee_seeds is None else callee_seeds:
        names, attributes, _ = _facts_of(seed)
        named_by_seeds |= names | (attributes & members)
    _keep_callees(
        [
            u
            for u in all_units
            if u.kept
            and not isinstance(u.node, ast.ClassDef)
            and any(u.first <= a and b <= u.last for a, b in callee_lines)
        ]
        + [u for u in all_units if u.is_def and not isinstance(u.node, ast.ClassDef) and u.name in named_by_seeds]
        + (storing if follow_callees else []),
        all_units,
    )
    changed = True
    while changed:
        changed = False
        read = set().union(*(u.attributes for u in all_units if u.kept and not isinstance(u.node, ast.ClassDef)))
        for unit in all_units:
            if unit.kept:
                continue
            if unit.is_def and not isinstance(unit.node, ast.ClassDef) and unit.attributes & read and _changes_in_place(unit) & read:
                unit.kept = True  # `self._objs[k] = v` in a method: what a kept `self._objs[name]` holds
                changed = True
                continue
            if unit.is_def and (unit.name in relevant or unit.references & relevant):
                named = unit.name in relevant
                unit.kept = True
                relevant.add(unit.name)  # type: ignore[arg-type]
                changed = True
                if not isinstance(unit.node, ast.ClassDef) and (follow_callees or not named):
                    # `cfg = make_config()`: what the helper builds; and a caller's helpers, whose
                    # returns it may hand on (`relu(x - y)` with `x = getn(d)`): whether what it
                    # passes is traced is read through them (`traced_values._returned_source`)
                    _keep_callees([unit], all_units)
        for unit in units:
            if unit.is_def:
                continue
            # A module-level statement that binds a relevant name brings in what
            # it is built from; one that uses it (``keep(CONFIG)``) brings in the
            # functions it hands it to, when a rule follows values into callees.
            if _targets(unit.node) & relevant or (follow_callees and unit.references & relevant):
                grown = unit.references & defined
                if not grown <= relevant:
                    relevant |= grown
                    changed = True
    lines: list[str | None] = list(split_lines(text))
    _stub(lines, units)
    kept = [(number, line) for number, line in enumerate(lines, 1) if line is not None]
    return Slice("".join(line for _, line in kept), tuple(number for number, _ in kept))


def _changes_in_place(unit: _Unit) -> set[str]:
    """The attributes whose items the unit stores or deletes, or on which it calls a changing
    method (``self._objs[name] = v``, ``self.layers.append(l)``): the analysis reads a container an
    attribute holds as its one display only where nothing changes it, and must see such code."""
    out: set[str] = set()
    for node in ast.walk(unit.node):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)) and isinstance(node.value, ast.Attribute):
            out.add(node.value.attr)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in CHANGING_METHODS
            and isinstance(node.func.value, ast.Attribute)
        ):
            out.add(node.func.value.attr)
    return out


def _stored_attributes(tree: ast.Module) -> set[str]:
    """Every ``x.name`` the module assigns, ``self.low, self.high = low, high`` too."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        targets = list(node.targets)
        while targets:
            target = targets.pop()
            if isinstance(target, ast.Attribute):
                out.add(target.attr)
            elif isinstance(target, (ast.Tuple, ast.List)):
                targets.extend(target.elts)
    return out


def _keep_callees(start: list[_Unit], all_units: list[_Unit]) -> None:
    """Keep the bodies of the functions the seed-holding functions name, and theirs, and so on.

    A rule may follow a value into a helper it is handed to (JAX201 does); the
    helper's body is then part of the analysis. Only bodies: what calls the
    helper elsewhere does not matter here.
    """
    by_name: dict[str, list[_Unit]] = {}
    for unit in all_units:
        if unit.is_def and unit.name:
            by_name.setdefault(unit.name, []).append(unit)
    queue = list(start)
    while queue:
        unit = queue.pop()
        for name in unit.references:
            for callee in by_name.get(name, ()):
                if not callee.kept:
                    callee.kept = True
                    if not isinstance(callee.node, ast.ClassDef):  # a class's own mentions are all its methods'
                        queue.append(callee)


def _stub(lines: list[str | None], units: list[_Unit]) -> None:
    for unit in units:
        if not unit.is_def:
            continue
        if isinstance(unit.node, ast.ClassDef):
            # Always its header and fields: what a class is (a NamedTuple, a frozen dataclass, a
            # pytree) decides how jit treats an instance a kept def builds, wherever it is built.
            _stub(lines, unit.children)
            continue
        if unit.kept:
            continue
        _replace(lines, unit)


def _replace(lines: list[str | None], unit: _Unit) -> None:
    """Replace the unit's lines with one stub line that binds the same name."""
    first = lines[unit.first - 1] or ""
    indent = first[: len(first) - len(first.lstrip())]
    ending = first[len(first.rstrip("\r\n")) :] or "\n"
    keyword = {ast.ClassDef: "class", ast.AsyncFunctionDef: "async def"}.get(type(unit.node), "def")
    signature = f"{unit.name}:" if keyword == "class" else f"{unit.name}():"
    for number in range(unit.first + 1, unit.last + 1):
        lines[number - 1] = None
    lines[unit.first - 1] = f"{indent}{keyword} {signature} pass{ending}"
    # Comments after the body's last statement, indented as the body was, belong to it: left
    # after a one-line stub they would open a block libcst does not give back as written.
    number = unit.last + 1
    while number <= len(lines):
        line = lines[number - 1]
        stripped = (line or "").strip()
        if line is not None and stripped and not stripped.startswith("#"):
            break
        if line is not None and stripped.startswith("#") and len(line) - len(line.lstrip()) > len(indent):
            lines[number - 1] = None
        number += 1
