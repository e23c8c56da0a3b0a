"""A jitted factory that returns a function: the jit moves onto the function it returns (jax#689).

``@jit def feature_map(n, d): ...; return phi`` fails twice: its sizes ``n``
and ``d`` arrive traced, and jit cannot return a Python function whatever is
static (its outputs must be arrays). What was meant is a factory run in
Python, which builds the arrays once and hands back a compiled function:
drop the decorator and return ``jit(phi)``. The factory's own JAX calls then
run eagerly on the concrete values they always had (the same random draws,
the same arithmetic), and every call of the returned function is compiled as
every call of the jitted factory would have been meant to be.

Proof obligations, each refused with the reason:

* the jit is bare (``@jit``, ``@jax.jit``, or a ``f = jit(f)`` line beside
  the def: no static arguments, which belong to the factory's parameters,
  not the returned function's), and no other decorator wraps the def but an
  outer ``@staticmethod`` (the def then read as ``Model.f``);
* every ``return`` of the def gives back a function: a lambda, a nested def,
  or a name bound once to one of them;
* every use of the name that held the jitted factory is a direct call
  (``feature_map(5, 3)``, ``Model.feature_map(5, 3)``): no caller reads an
  attribute of the jitted object (``.lower``) or hands it to a transform;
* ``jax.jit`` can be spelled at each return (`edits.imports`).
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.constants import assigned_value, own_returns, single_binding
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.reads import reads
from jaxfix.transforms.semantics.vocabulary import JIT


def returned_function(ctx, fn: FunctionNode) -> cst.BaseExpression | None:
    """What `fn` returns when that is a Python function (a lambda, a def, a name bound once to
    either): a jitted function's outputs must be arrays, so no static argument helps."""
    if not isinstance(fn, cst.FunctionDef):
        return None
    return next((value for r in own_returns(fn) if (value := _function_value(ctx, r.value)) is not None), None)


def _function_value(ctx, value: cst.BaseExpression | None) -> cst.BaseExpression | None:
    if isinstance(value, cst.Lambda):
        return value
    if isinstance(value, cst.Name):
        binding = single_binding(ctx, value)
        held = binding if isinstance(binding, cst.FunctionDef) else assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        if isinstance(held, (cst.FunctionDef, cst.Lambda)):
            return value
    return None


def jit_the_returned_function(analysis: Analysis, fn: FunctionNode) -> tuple[Edit, ...] | str:
    """The edits that drop `fn`'s jit and jit what it returns; else why not."""
    ctx = analysis.ctx
    if not isinstance(fn, cst.FunctionDef):
        return "it is a lambda"
    info = function_info(ctx, fn)
    jit_node = info.jit_node if info.jit is not None and info.jit.call is None else _assigned_jit(ctx, fn)
    if jit_node is None:
        return "its jit is not a bare `jit`"
    returns = own_returns(fn)
    if not returns or any(_function_value(ctx, r.value) is None for r in returns):
        return "not every return gives back a function"
    removed = _jit_removed(ctx, fn, jit_node)
    if isinstance(removed, str):
        return removed
    edits = [removed]
    plan = planner(analysis)
    for returned in returns:
        spelled = plan.spell(JIT, returned)
        if spelled is None:
            return "`jax.jit` cannot be spelled where it returns"
        edits.append(ctx.replace(returned.value, f"{spelled.text}({ctx.code(returned.value)})"))  # type: ignore[arg-type]
        if spelled.edit is not None and spelled.edit not in edits:
            edits.append(spelled.edit)
    return tuple(edits)


def _assigned_jit(ctx, fn: cst.FunctionDef) -> cst.Call | None:
    """The ``jit(f)`` of a line ``f = jit(f)`` in the def's own block (no options)."""
    block = ctx.parent(fn)
    body = block.body if isinstance(block, (cst.Module, cst.IndentedBlock)) else ()
    for statement in body:
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
        value = small.value if isinstance(small, cst.Assign) else None
        if (
            isinstance(value, cst.Call)
            and ctx.names.qualified_name(value.func) == JIT
            and len(value.args) == 1
            and value.args[0].keyword is None
            and not value.args[0].star
            and isinstance(value.args[0].value, cst.Name)
            and value.args[0].value.value == fn.name.value
        ):
            return value
    return None


def _jit_removed(ctx, fn: cst.FunctionDef, jit_node: cst.CSTNode | None) -> Edit | str:
    """The edit removing the jit: its decorator line (beside, at most, an outer ``@staticmethod``,
    the def then read as ``Model.f``), or the line ``f = jit(f)`` after the def. Every use of the
    name that holds the jitted factory must be a direct call."""
    decorators = [ctx.names.qualified_name(d.decorator) for d in fn.decorators]
    if isinstance(jit_node, cst.Decorator) and decorators in (["builtins.staticmethod", JIT], [JIT]):
        static = len(decorators) == 2
        uses = _static_method_uses(ctx, fn) if static else [u for u in reads(ctx, fn.name)]
        return _when_only_called(ctx, fn, uses, _line_of(ctx, jit_node))
    statement = ctx.statement_of(jit_node) if isinstance(jit_node, cst.Call) else None
    if not fn.decorators and isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        assign = statement.body[0]
        if (
            isinstance(assign, cst.Assign)
            and assign.value is jit_node
            and len(assign.targets) == 1
            and isinstance(assign.targets[0].target, cst.Name)
            and assign.targets[0].target.value == fn.name.value
            and ctx.parent(statement) is ctx.parent(fn)
        ):
            uses = [u for u in reads(ctx, fn.name) if not any(a is jit_node for a in ctx.ancestors(u))]
            return _when_only_called(ctx, fn, uses, _line_of(ctx, statement))
    return "its jit is not a decorator or a `f = jit(f)` line beside the def"


def _static_method_uses(ctx, fn: cst.FunctionDef) -> list[cst.CSTNode] | None:
    """``Model.f`` reads of a staticmethod of a class bound once; None when the class escapes."""
    cls = ctx.parent(ctx.parent(fn))
    if not isinstance(cls, cst.ClassDef):
        return None
    uses = ctx.attributes_named(fn.name.value)
    if not all(isinstance(u.value, cst.Name) and single_binding(ctx, u.value) is cls for u in uses):
        return None
    return list(uses)


def _when_only_called(ctx, fn: cst.FunctionDef, uses: list[cst.CSTNode] | None, edit: Edit) -> Edit | str:
    if uses is None:
        return f"`{fn.name.value}`'s class is used where its calls cannot all be seen"
    for use in uses:
        call = ctx.parent(use)
        if not (isinstance(call, cst.Call) and call.func is use):
            return f"`{fn.name.value}` is used other than by direct calls (line {ctx.span(use).start.line})"
    return edit


def _line_of(ctx, node: cst.CSTNode) -> Edit:
    """An edit removing the whole lines `node` is written on."""
    start = ctx.text.rfind("\n", 0, ctx.start(node)) + 1
    end = ctx.text.find("\n", ctx.end(node))
    return Edit(start, end + 1 if end != -1 else len(ctx.text), "")
