"""A jit that only ever runs inside another jit, and so can go.

jit inside a traced function adds nothing the outer jit does not do: the
inner function is traced into the same program. Its one visible effect is
on what the inner function returns: arrays, never Python values. JAX102
drops the jit of branches it moves into their enclosing jit; JAX304 drops a
helper's jit when a Python result is what the caller needs (jax#35090).
The jit can go only where every use is seen and traced.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.importers import exported_name, here, uses_elsewhere
from jaxfix.transforms.semantics.module import ModuleContext


def why_jit_stays(analysis: Analysis, target) -> str | None:
    """Why the jit of `target` (a `callables.Target`) must stay; None when every use of
    the function is inside traced code of this module and its jit sets nothing but static
    arguments."""
    ctx = analysis.ctx
    if target.function.defined_in is not None:
        return f"defined in `{target.function.defined_in.name}`, whose other uses are not checked here"
    if not isinstance(target.jit_node, cst.Decorator) and _rebinding_line(ctx, target) is None:
        return "jitted by assignment"
    call = target.jit.call
    if call is not None:
        extra = [a for a in call.args if a.keyword is not None and a.keyword.value not in ("static_argnums", "static_argnames")]
        if extra:
            return f"its jit also sets `{extra[0].keyword.value}`"
    refs = uses_of_jitted(analysis, target)
    if refs is None:
        return "its uses cannot all be seen"
    for ref in refs:
        if not _in_traced_code(analysis, ref):
            return f"used outside traced code at line {ctx.span(ref).start.line}"
    exported = exported_name(ctx, target.function.node)
    definition = here(ctx, exported) if exported is not None else None
    for uses in uses_elsewhere(ctx, definition) if definition is not None else ():
        return uses.hidden or f"also used in `{uses.module.name}` (line {uses.line(uses.nodes[0])})"
    return None


def uses_of_jitted(analysis: Analysis, target) -> list[cst.CSTNode] | None:
    """Every use of the jitted function but the ``f`` that ``f = jax.jit(f)`` itself wraps;
    None when they cannot all be listed."""
    refs = analysis.traces.references(target.function.node)
    rebinding = _rebinding_line(analysis.ctx, target)
    if refs is None or rebinding is None:
        return refs
    return [r for r in refs if not any(a is rebinding for a in analysis.ctx.ancestors(r))]


def dropped_jit(ctx: ModuleContext, target) -> Edit:
    """The edit deleting the jit of `target`: its decorator's lines, or the line of
    ``f = jax.jit(f, ...)`` (`why_jit_stays` has accepted one or the other)."""
    node = target.jit_node if isinstance(target.jit_node, cst.Decorator) else _rebinding_line(ctx, target)
    span = ctx.local_span(node)
    return Edit(ctx.lines.line_start(span.start.line), ctx.lines.line_start(span.end.line + 1), "")


def _rebinding_line(ctx: ModuleContext, target) -> cst.SimpleStatementLine | None:
    """``f = jax.jit(f, ...)`` alone on its line, right in the def's block, for the def of `target`."""
    node = target.jit_node
    if not isinstance(node, cst.Call) or not isinstance(target.function.node, cst.FunctionDef):
        return None
    line = ctx.statement_of(node)
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Assign)):
        return None
    assign = line.body[0]
    wrapped = node.args[0].value if node.args else None
    name = target.function.node.name.value
    if assign.value is not node or len(assign.targets) != 1:
        return None
    if not (isinstance(assign.targets[0].target, cst.Name) and assign.targets[0].target.value == name):
        return None
    if not (isinstance(wrapped, cst.Name) and wrapped.value == name):
        return None
    return line if ctx.parent(line) is ctx.parent(target.function.node) else None


def _in_traced_code(analysis: Analysis, node: cst.CSTNode) -> bool:
    traces = analysis.traces
    return any(
        isinstance(a, (cst.FunctionDef, cst.Lambda)) and traces.jit_entry(a) is not None
        for a in analysis.ctx.ancestors(node)
    )
