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
from jaxfix.transforms.edits.statements import line_removed
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.callables import python_function
from jaxfix.transforms.semantics.constants import own_returns, single_binding
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.reads import reads
from jaxfix.transforms.semantics.vocabulary import JIT


def returned_function(ctx, fn: FunctionNode) -> cst.BaseExpression | None:
    """What `fn` returns when that is a Python function (`callables.python_function`): a jitted
    function's outputs must be arrays, so no static argument helps."""
    if not isinstance(fn, cst.FunctionDef):
        return None
    return next((r.value for r in own_returns(fn) if python_function(ctx, r.value) is not None), None)


def jit_the_returned_function(analysis: Analysis, fn: FunctionNode) -> tuple[Edit, ...] | str:
    """The edits that drop `fn`'s jit and jit what it returns; else why not."""
    ctx = analysis.ctx
    if not isinstance(fn, cst.FunctionDef):
        return "it is a lambda"
    info = function_info(ctx, fn)
    bare = info.jit is not None and info.jit.call is None and isinstance(info.jit_node, cst.Decorator)
    jit_node = info.jit_node if bare else _assigned_jit(ctx, fn)
    if jit_node is None:
        return "its jit is not a bare `jit`, as a decorator or a `f = jit(f)` line beside the def"
    returns = own_returns(fn)
    if not returns or any(python_function(ctx, r.value) is None for r in returns):
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


def _assigned_jit(ctx, fn: cst.FunctionDef) -> cst.Assign | None:
    """The line ``f = jit(f)`` (no options) in the def's own block, for an undecorated def."""
    block = ctx.parent(fn)
    body = block.body if isinstance(block, (cst.Module, cst.IndentedBlock)) and not fn.decorators else ()
    for statement in body:
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
        if not isinstance(small, cst.Assign) or len(small.targets) != 1:
            continue
        target, value = small.targets[0].target, small.value
        if (
            isinstance(target, cst.Name)
            and target.value == fn.name.value
            and isinstance(value, cst.Call)
            and ctx.names.qualified_name(value.func) == JIT
            and len(value.args) == 1
            and value.args[0].keyword is None
            and not value.args[0].star
            and isinstance(value.args[0].value, cst.Name)
            and value.args[0].value.value == fn.name.value
        ):
            return small
    return None


def _jit_removed(ctx, fn: cst.FunctionDef, jit: cst.Decorator | cst.Assign) -> Edit | str:
    """The edit removing the jit: its decorator line (beside, at most, an outer ``@staticmethod``,
    the def then read as ``Model.f``), or the line ``f = jit(f)`` beside the def. Every use of the
    name that holds the jitted factory must be a direct call."""
    if isinstance(jit, cst.Assign):
        uses = [u for u in reads(ctx, fn.name) if not any(a is jit.value for a in ctx.ancestors(u))]
        return _when_only_called(ctx, fn, uses, line_removed(ctx, jit, ctx.code(jit)))
    decorators = [ctx.names.qualified_name(d.decorator) for d in fn.decorators]
    if decorators not in (["builtins.staticmethod", JIT], [JIT]):
        return "another decorator wraps it"
    uses = _static_method_uses(ctx, fn) if len(decorators) == 2 else reads(ctx, fn.name)
    return _when_only_called(ctx, fn, uses, line_removed(ctx, jit.decorator, "@" + ctx.code(jit.decorator)))


def _static_method_uses(ctx, fn: cst.FunctionDef) -> list[cst.CSTNode] | None:
    """``Model.f`` reads of a staticmethod of a class bound once; None when the class escapes."""
    cls = ctx.parent(ctx.parent(fn))
    if not isinstance(cls, cst.ClassDef):
        return None
    uses = ctx.attributes_named(fn.name.value)
    if not all(isinstance(u.value, cst.Name) and single_binding(ctx, u.value) is cls for u in uses):
        return None
    return list(uses)


def _when_only_called(ctx, fn: cst.FunctionDef, uses: list[cst.CSTNode] | None, edit: Edit | None) -> Edit | str:
    if edit is None:
        return "its jit shares its line with other code"
    if uses is None:
        return f"`{fn.name.value}`'s class is used where its calls cannot all be seen"
    for use in uses:
        call = ctx.parent(use)
        if not (isinstance(call, cst.Call) and call.func is use):
            return f"`{fn.name.value}` is used other than by direct calls (line {ctx.span(use).start.line})"
    return edit
