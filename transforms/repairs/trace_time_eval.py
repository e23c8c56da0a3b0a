"""Compute jnp on static values while tracing: wrap the statement in ``jax.ensure_compile_time_eval()``.

Under jit a jnp call is staged even when every operand is a Python value, so
``int(jnp.ceil(T / delta_t))`` fails although ``T`` and ``delta_t`` are static
(phentax#28). Rewriting it in Python (`math.ceil`) would compute in float64
where jnp computes in float32, and could round differently; JAX402 therefore
rewrites only integer arithmetic. Inside ``with jax.ensure_compile_time_eval():``
the same jnp calls run on their concrete operands at trace time: the same
code, the same dtypes and the same rounding, now a concrete array that
``int()``, a shape or ``range`` accepts (docs/jax4xx-behaviour.md, B).

Proof obligations, each refused with the reason:

* every value the call is made of is static where it is written
  (`int_values.IntStatic`: Python ints, floats, static parameters, array
  metadata, a helper's parameter every call passes a static value), or an
  attribute of a static value (``self.T`` of a static ``self``), through
  arithmetic and jax.numpy calls;
* the value the place needs concrete (`needed`: ``s`` of ``float(s)``) is
  made of nothing else: static values, and jnp calls on them written in the
  wrapped statement, through names bound once. ``s = -jnp.log(1e-6) /
  resolution`` with a traced ``resolution`` stays a tracer inside the block,
  and so does a value a later statement computes with jnp outside it;
* the call's statement is one simple statement on one line, in a function's
  block, not already in such a ``with``;
* ``jax.ensure_compile_time_eval`` has a name there (`edits.imports`).

Any jnp call of the statement whose operands are traced still traces: the
block only changes what is computed from concrete values.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.constants import assigned_value, local_bindings, single_binding
from jaxfix.transforms.semantics.int_values import IntStatic, Kind
from jaxfix.transforms.semantics.staged import in_eager_block
from jaxfix.transforms.semantics.static_values import Kind as Static

EVAL_BLOCK = "jax.ensure_compile_time_eval"
_JNP = "jax.numpy."


def evaluate_while_tracing(
    analysis: Analysis, call: cst.Call, ints: IntStatic, needed: Sequence[cst.BaseExpression]
) -> tuple[tuple[Edit, ...], str] | str:
    """(the edits, the ``with`` line) that compute `call` at trace time, so that each of `needed`
    (the values the place takes, made from the call's) is concrete there; else why not."""
    ctx = analysis.ctx
    unproven = _unproven_operand(analysis, call, ints)
    if unproven is not None:
        return f"`{ctx.code(unproven)}` is not shown to be static"
    statement = ctx.statement_of(call)
    for value in needed:
        mixed = _unproven_value(analysis, value, ints, statement, 0)
        if mixed is not None:
            return f"the value needed concrete is also made of `{ctx.code(mixed)}`, which is not shown to be static"
    block = ctx.parent(statement)
    if not isinstance(statement, cst.SimpleStatementLine) or not isinstance(block, cst.IndentedBlock):
        return "the value is not computed in a statement of its own inside a function"
    if ctx.enclosing_function(statement) is None or in_eager_block(ctx, call):
        return "the statement is not in a function's code, or already computed at trace time"
    span = ctx.span(statement)
    if span.start.line != span.end.line - (1 if span.end.column == 0 else 0) or "\\" in ctx.code(statement):
        return "the statement spans several lines"
    spelled = planner(analysis).spell(EVAL_BLOCK, statement)
    if spelled is None:
        return "no name for `jax.ensure_compile_time_eval` is free here"
    indent = ctx.indent_of(statement)
    opening = f"with {spelled.text}():"
    edits = [Edit(ctx.start(statement), ctx.start(statement), f"{opening}\n{indent}    ")]
    if spelled.edit is not None:
        edits.append(spelled.edit)
    return tuple(edits), opening


def _unproven_operand(analysis: Analysis, call: cst.Call, ints: IntStatic) -> cst.CSTNode | None:
    """The first value the call is made of that is not shown static (None: all are)."""
    ctx = analysis.ctx
    stack: list[cst.BaseExpression] = [a.value for a in call.args if not a.star]
    if any(a.star for a in call.args):
        return call
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.Integer, cst.Float)):
            continue
        if isinstance(node, (cst.BinaryOperation, cst.UnaryOperation)):
            stack.extend(c for c in node.children if isinstance(c, cst.BaseExpression))
            continue
        if isinstance(node, (cst.Tuple, cst.List)):
            stack.extend(e.value for e in node.elements)
            continue
        if isinstance(node, cst.Call) and (ctx.names.qualified_name(node.func) or "").startswith(_JNP):
            if any(a.star for a in node.args):
                return node
            stack.extend(a.value for a in node.args)
            continue
        if not _concrete(analysis, node, ints, 0):
            return node
    return None


def _unproven_value(
    analysis: Analysis, expr: cst.BaseExpression, ints: IntStatic, statement: cst.CSTNode, depth: int
) -> cst.CSTNode | None:
    """The first part of `expr` that is neither static nor a jnp call on static values written in
    `statement` (the one the block wraps), following names bound once; None when there is none."""
    ctx = analysis.ctx
    if depth > 8:
        return expr
    if isinstance(expr, (cst.Integer, cst.Float)) or _concrete(analysis, expr, ints, 0):
        return None
    parts: list[cst.BaseExpression]
    if isinstance(expr, (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison)):
        parts = [c for c in expr.children if isinstance(c, cst.BaseExpression)]
        parts += [t.comparator for t in expr.comparisons] if isinstance(expr, cst.Comparison) else []
    elif isinstance(expr, (cst.Tuple, cst.List)):
        parts = [e.value for e in expr.elements]
    elif isinstance(expr, cst.Call) and (ctx.names.qualified_name(expr.func) or "").startswith(_JNP):
        if ctx.statement_of(expr) is not statement or any(a.star for a in expr.args):
            return expr
        parts = [a.value for a in expr.args]
    elif isinstance(expr, cst.Name):
        binding = single_binding(ctx, expr)
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        if value is None:
            return expr
        parts = [value]
    else:
        return expr
    for part in parts:
        found = _unproven_value(analysis, part, ints, statement, depth + 1)
        if found is not None:
            return found
    return None


def _concrete(analysis: Analysis, node: cst.BaseExpression, ints: IntStatic, depth: int) -> bool:
    """Is `node` a value jit hands the code as it is (never a tracer)? Static where written; or an
    attribute of such a value (``self.T`` of a static ``self``: a Python number, or an array the
    object holds, concrete either way); or a name every binding of which is one of those
    (``if T is None: T = self.T`` after the static parameter ``T``)."""
    if depth > 6:
        return False
    if ints.kind(node).kind is not Kind.UNKNOWN:
        return True
    if isinstance(node, cst.Attribute):
        return _concrete(analysis, node.value, ints, depth + 1)
    if isinstance(node, cst.Subscript):  # `shape[0]`: an element of a concrete value, at a concrete place
        return _concrete(analysis, node.value, ints, depth + 1) and all(
            isinstance(e.slice, cst.Index) and _concrete(analysis, e.slice.value, ints, depth + 1) for e in node.slice
        )
    if not isinstance(node, cst.Name):
        return False
    if analysis.staticness.verdict(node).kind is Static.STATIC:
        return True
    bindings = local_bindings(analysis.ctx, node)
    if bindings is None:
        return False
    return all(
        analysis.staticness.parameter_verdict(b).kind is Static.STATIC
        if isinstance(b, cst.Param)
        else _concrete(analysis, b, ints, depth + 1)
        for b in bindings
    )
