"""The other modules of the project that use one of this module's names.

A fix that changes what a module-level name accepts or holds (a parameter
made static, a config frozen, a jit dropped) is safe only if every user of
the name agrees, and users may be in other modules: ``from .model import
step`` then ``step(x, n)``. Each module whose imports may reach the name
(a byte test) is parsed (once per process) and its uses that resolve, through its imports, to
this module's name are handed back, for the rule to check with that module's
own analysis. A module that star-imports the defining module hides its uses,
and is reported as such.

Without a project (a file on stdin, a lone script) there is nothing else to
consult: the module is the whole program, as it always was.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import libcst as cst
from libcst.helpers import get_full_name_for_node

from jaxfix.transforms.project.repository import Definition, ModuleRef, absolute
from jaxfix.transforms.semantics.imported_definitions import definition_of
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext


@dataclass(frozen=True)
class UsesIn:
    """One other module's uses of the name; `hidden` says why some cannot be seen."""

    module: ModuleRef
    analysis: object | None  # that module's `analysis.Analysis`
    nodes: tuple[cst.CSTNode, ...]
    hidden: str | None = None

    def line(self, node: cst.CSTNode) -> int:
        return self.analysis.ctx.span(node).start.line  # type: ignore[union-attr]


def uses_elsewhere(ctx: ModuleContext, definition: Definition, skip: Iterable[ModuleRef] = ()) -> list[UsesIn]:
    """Every other module's uses of `definition` (its module's name), module by module."""
    return list(_each_module_using(ctx, definition, skip))


def used_elsewhere(ctx: ModuleContext, definition: Definition | None) -> bool:
    """Does another module use `definition` (or may, unseen)? Stops at the first that does: each
    module asked is parsed, and a name of a library's core may be imported by hundreds."""
    return definition is not None and next(_each_module_using(ctx, definition), None) is not None


def _each_module_using(ctx: ModuleContext, definition: Definition, skip: Iterable[ModuleRef] = ()) -> Iterator[UsesIn]:
    repo = ctx.repo
    name = definition.attribute
    if repo is None or name is None:
        return
    skipped = {definition.module, ctx.ref, *skip}
    for ref in repo.modules_importing(name, definition.module):  # type: ignore[attr-defined]
        if ref in skipped:
            continue
        other = repo.analysis(ref, ctx.options)  # type: ignore[attr-defined]
        if other is None:
            yield UsesIn(ref, None, (), f"`{ref.name}` may import `{name}` and cannot be parsed")
            continue
        hidden = _star_import_of(other.ctx, definition.module)
        nodes = tuple(_importing_uses(other.ctx, definition, name))
        if nodes or hidden:
            yield UsesIn(ref, other, nodes, hidden)


def exported_name(ctx: ModuleContext, fn: FunctionNode) -> str | None:
    """The module-level name through which other modules reach `fn` (its def, or its class)."""
    if isinstance(fn, cst.FunctionDef) and fn in ctx.module.body:
        return fn.name.value
    owner = ctx.parent(fn)
    while owner is not None and not isinstance(owner, (cst.ClassDef, cst.FunctionDef, cst.Module)):
        owner = ctx.parent(owner)
    if isinstance(owner, cst.ClassDef) and owner in ctx.module.body:
        return owner.name.value
    return None


def jitted_name(ctx: ModuleContext, fn: FunctionNode, jit_node: cst.CSTNode) -> str | None:
    """The module-level name through which other modules call the jitted `fn`: its
    def's (or class's) name for a decorator, ``g`` for ``g = jax.jit(f, ...)``."""
    if isinstance(jit_node, cst.Decorator):
        return exported_name(ctx, fn)
    statement = ctx.statement_of(jit_node)
    if not isinstance(statement, cst.SimpleStatementLine) or statement not in ctx.module.body:
        return None
    small = statement.body[0] if len(statement.body) == 1 else None
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
        return small.targets[0].target.value
    return None


@dataclass(frozen=True)
class CallElsewhere:
    uses: UsesIn
    call: cst.Call


def calls_elsewhere(ctx: ModuleContext, name: str) -> list[CallElsewhere] | str:
    """Every call other modules make of this module's function `name`; else why they
    cannot all be seen (a use that is not a direct call, a class whose methods they call)."""
    definition = here(ctx, name)
    if definition is None:
        return []
    is_class = any(isinstance(s, cst.ClassDef) and s.name.value == name for s in ctx.module.body)
    out: list[CallElsewhere] = []
    for uses in _each_module_using(ctx, definition):
        if uses.hidden:
            return uses.hidden
        for node in uses.nodes:
            where = f"`{uses.module.name}` (line {uses.line(node)})"
            if is_class:
                return f"`{name}` is also used in {where}, where calls of its methods cannot be followed"
            call = uses.analysis.ctx.parent(node)  # type: ignore[union-attr]
            if not (isinstance(call, cst.Call) and call.func is node):
                return f"`{name}` is also used in {where} other than by a direct call"
            out.append(CallElsewhere(uses, call))
    return out


def here(ctx: ModuleContext, name: str) -> Definition | None:
    """This module's `name`, as other modules import it (None without a project)."""
    if ctx.repo is None or ctx.ref is None:
        return None
    return Definition(ctx.ref, name)  # type: ignore[arg-type]


def module_using(ctx: ModuleContext, name: str) -> str | None:
    """Another module of the project that uses this module's `name` (or may: it cannot be read)."""
    definition = here(ctx, name)
    if definition is None:
        return None
    for uses in _each_module_using(ctx, definition):
        if uses.hidden or uses.nodes:
            return uses.module.name
    return None


def first_unchecked(uses: list[UsesIn]) -> str | None:
    """Why some use elsewhere cannot be checked at all (unreadable, star-imported)."""
    return next((u.hidden for u in uses if u.hidden), None)


def _importing_uses(ctx: ModuleContext, definition: Definition, name: str) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []
    for node in ctx.nodes_of(cst.Name):
        parent = ctx.parent(node)
        if node.value != name or isinstance(parent, cst.ImportAlias):
            continue
        if isinstance(parent, cst.Attribute) and parent.attr is node:
            continue  # `m.step`: the Attribute below
        if definition_of(ctx, node) == definition:
            found.append(node)
    for node in ctx.attributes_named(name):
        if definition_of(ctx, node) == definition:
            found.append(node)
    return found


def _star_import_of(ctx: ModuleContext, module: ModuleRef) -> str | None:
    for node in ctx.nodes_of(cst.ImportFrom):
        if not isinstance(node.names, cst.ImportStar):
            continue
        written = get_full_name_for_node(node.module) if node.module is not None else ""
        if absolute(ctx.ref, written or "", len(node.relative)) == module.name:  # type: ignore[arg-type]
            line = ctx.span(node).start.line
            return f"`{ctx.ref.name}` imports everything from `{module.name}` (line {line}), so its uses cannot be followed"  # type: ignore[union-attr]
    return None
