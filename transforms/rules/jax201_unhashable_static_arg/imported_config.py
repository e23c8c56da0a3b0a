"""A config another module of the project builds, frozen where it is built.

``from .configs import CONFIG`` then ``step(x, CONFIG)``: the literal is in
``configs.py``, so that is where JAX201 freezes it, with ``configs.py``'s own
analysis (its mapping library, its imports, every use it makes of CONFIG),
and only when no module of the project uses the name in a way a frozen value
would change: the module that found it (`uses_here`), and every other module
that imports it (the use checker follows a module-level name into its importers). The edits are in the other file (`Edit.file`); the engine applies them in
the same run.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.project.repository import Definition, ModuleRef
from jaxfix.transforms.semantics.imported_definitions import definition_of
from jaxfix.transforms.semantics.module import ModuleContext


@dataclass(frozen=True)
class RemoteBuild:
    """The module-level binding, in the defining module, of an imported name."""

    definition: Definition
    analysis: object  # the defining module's `analysis.Analysis`
    target: cst.Name  # ``CONFIG`` in ``CONFIG = {...}``


def remote_build(ctx: ModuleContext, expr: cst.BaseExpression) -> RemoteBuild | None:
    """Where the project builds the value `expr` imports (a name bound once at module level)."""
    definition = definition_of(ctx, expr)
    if definition is None or definition.attribute is None or definition.module == ctx.ref:
        return None
    remote = ctx.repo.analysis(definition.module, ctx.options)  # type: ignore[union-attr]
    if remote is None:
        return None
    targets = [
        t.target
        for statement in remote.ctx.module.body
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
        for small in statement.body
        if isinstance(small, cst.Assign)
        for t in small.targets
        if isinstance(t.target, cst.Name) and t.target.value == definition.attribute
    ]
    if len(targets) != 1:
        return None
    return RemoteBuild(definition, remote, targets[0])


def uses_here(ctx: ModuleContext, expr: cst.BaseExpression) -> list[cst.CSTNode]:
    """Every place this module uses the imported name (``CONFIG``, or ``configs.CONFIG``)."""
    if isinstance(expr, cst.Name):
        scope = ctx.scope(expr)
        if scope is None:
            return [expr]
        return [access.node for assignment in scope[expr.value] for access in assignment.references] or [expr]
    if isinstance(expr, cst.Attribute):
        wanted = definition_of(ctx, expr)
        return [
            node
            for node in ctx.attributes_named(expr.attr.value)
            if definition_of(ctx, node) == wanted
        ] or [expr]
    return [expr]


def elsewhere(edits: tuple[Edit, ...], ref: ModuleRef) -> tuple[Edit, ...]:
    """The defining module's edits, marked as edits of that file."""
    return tuple(replace(e, file=ref.path) for e in edits)
