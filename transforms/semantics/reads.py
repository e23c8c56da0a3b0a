"""Reads of a name, through libcst's scopes: who looks at a variable or a parameter.

libcst is not flow-sensitive: every read of a name in a scope counts for every
binding of it there. For the questions asked here (is a loop index read, are a
scan's ys used, where else is a parameter read) that errs on the side of
"read", which is the safe side.
"""

from __future__ import annotations

import libcst as cst
from libcst.metadata import FunctionScope, GlobalScope, Scope

from jaxfix.transforms.semantics.constants import reaching_binding
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext


def reads(ctx: ModuleContext, name: cst.Name) -> list[cst.CSTNode]:
    """Every read of the bindings of `name` in its scope (nested functions included), in source order."""
    scope = ctx.scope(name)
    if scope is None:
        return [name]
    nodes = {access.node for assignment in scope.assignments[name.value] for access in assignment.references}
    return sorted((n for n in nodes if not _shadowed(ctx, n, scope, name.value)), key=ctx.start)


def _shadowed(ctx: ModuleContext, node: cst.CSTNode, scope: Scope, name: str) -> bool:
    """A function between the read and `scope` binds `name` itself, so the read is of that binding.
    libcst 1.9 gives the outer binding a read that comes before the nested function's own
    assignment of the name (``def step(i, state): state = update(i, state)``), its parameter
    notwithstanding; Python makes the name local to the whole nested function."""
    inner = ctx.scope(node)
    while inner is not None and inner is not scope and not isinstance(inner, GlobalScope):
        if isinstance(inner, FunctionScope) and name not in getattr(inner, "_scope_overwrites", {}) and inner.assignments[name]:
            return True
        inner = inner.parent
    return False


def reads_seeing(ctx: ModuleContext, binding: cst.Name | cst.Param) -> list[cst.CSTNode]:
    """The reads that see this one binding of a name (`reads` gives those of every binding of it):
    ``carry = (key, params)`` before ``return carry, None`` hides the parameter ``carry``."""
    name = binding.name if isinstance(binding, cst.Param) else binding
    return [r for r in reads(ctx, name) if not isinstance(r, cst.Name) or reaching_binding(ctx, r) is binding]


def names_read(node: cst.CSTNode) -> list[cst.Name]:
    """The names spelled in `node` as names (read, bound, a parameter's), not an attribute's name
    nor a keyword argument's."""
    found: list[cst.Name] = []

    class Reads(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)
            return False

        def visit_Arg(self, node: cst.Arg) -> bool:
            node.value.visit(self)
            return False

        def visit_Name(self, node: cst.Name) -> None:
            found.append(node)

    node.visit(Reads())
    return found


def first_parameter(fn: FunctionNode) -> str | None:
    """The name of the first positional parameter (a method's ``self``); None when there is none."""
    positional = [*fn.params.posonly_params, *fn.params.params]
    return positional[0].name.value if positional else None


def parameter(fn: FunctionNode, name: str) -> cst.Param | None:
    params = fn.params
    return next((p for p in (*params.posonly_params, *params.params, *params.kwonly_params) if p.name.value == name), None)


def parameter_reads(ctx: ModuleContext, fn: FunctionNode, name: str) -> list[cst.CSTNode]:
    """Every read of a parameter, in its function and the functions nested in it."""
    param = parameter(fn, name)
    return reads(ctx, param.name) if param is not None else []
