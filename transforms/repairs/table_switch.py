"""``table[i](x)`` with a traced ``i`` becomes ``lax.switch(i, table, x)`` (jax#5261).

A Python list of functions indexed by a tracer fails: the list needs a
concrete int. ``lax.switch`` takes a traced index and a sequence of
callables, and calls the one the index picks, so the call's meaning is kept
where:

* the table is a list or tuple display bound once, of functions (defs or
  lambdas of the module, its static methods, JAX's own functions), and every
  other read of it is an index or ``len()`` (no call can change it before the
  switch reads it);
* the call passes its arguments by position, none starred (switch hands its
  operands on by position).

Always unsafe, for what the model does not prove: switch clamps an index
outside ``[0, len(table))`` where the list would raise or wrap a negative
index (`index_in_range` says when a ``fori_loop`` over the table's length
rules this out), and switch traces every function, which must return the
same shapes and dtypes.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.callables import resolve_callable
from jaxfix.transforms.semantics.constants import assigned_value, single_binding, written_out
from jaxfix.transforms.semantics.reads import reads

SWITCH = "jax.lax.switch"


def _table(analysis: Analysis, table: cst.BaseExpression) -> cst.List | cst.Tuple | str:
    ctx = analysis.ctx
    if not isinstance(table, cst.Name):
        return "the functions are not a list held by a name"
    binding = single_binding(ctx, table)
    value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
    if value is not None:
        value = written_out(ctx, value)  # `POTENTIALS = make_potentials()`: a fresh list, read only here
    if not isinstance(value, (cst.List, cst.Tuple)) or not value.elements:
        return f"`{table.value}` is not bound once to a list of functions"
    for element in value.elements:
        if not isinstance(element, cst.Element):
            return f"`{table.value}` unpacks another sequence"
        if not _a_function(analysis, element.value):
            return f"`{ctx.code(element.value)}` in `{table.value}` is not a function"
    for read in reads(ctx, binding):  # type: ignore[arg-type]
        parent = ctx.parent(read)
        if isinstance(parent, cst.Subscript) and parent.value is read:
            continue
        arg = parent if isinstance(parent, cst.Arg) else None
        call = ctx.parent(arg) if arg is not None else None
        if isinstance(call, cst.Call) and ctx.names.qualified_name(call.func) == "builtins.len":
            continue
        return f"`{table.value}` is also used as `{ctx.code(parent) if isinstance(parent, cst.BaseExpression) else table.value}`, which may change it"
    return value


def _a_function(analysis: Analysis, item: cst.BaseExpression) -> bool:
    """A lambda, a def of the module (``harmonic``, ``Model.harmonic``, ``self.step``), or a
    function of JAX's own (``jnp.tanh``, ``jax.nn.relu``)."""
    ctx = analysis.ctx
    if isinstance(item, cst.Lambda):
        return True
    if isinstance(item, cst.Name) and isinstance(single_binding(ctx, item), cst.FunctionDef):
        return True
    if resolve_callable(ctx, item) is not None:
        return True
    qualified = ctx.names.qualified_name(item) or ""
    return qualified.startswith(("jax.numpy.", "jax.nn.", "jax.lax.", "jax.scipy."))


def index_in_range(analysis: Analysis, loop: cst.Call, table: cst.BaseExpression) -> bool:
    """``fori_loop(0, len(table), ...)`` (or the table's length written out): the index the body
    gets is always a valid position of the table."""
    ctx = analysis.ctx
    args = [a for a in loop.args if a.keyword is None and not a.star]
    if len(args) < 2 or not isinstance(args[0].value, cst.Integer) or args[0].value.evaluated_value != 0:
        return False
    upper = args[1].value
    value = _table(analysis, table)
    if isinstance(value, str):
        return False
    if isinstance(upper, cst.Integer):
        return upper.evaluated_value == len(value.elements)
    if isinstance(upper, cst.Call) and ctx.names.qualified_name(upper.func) == "builtins.len" and len(upper.args) == 1:
        inner = upper.args[0].value
        return isinstance(inner, cst.Name) and isinstance(table, cst.Name) and single_binding(ctx, inner) is single_binding(ctx, table)
    return False


def switch_call(analysis: Analysis, subscript: cst.Subscript) -> tuple[tuple[Edit, ...], str] | str:
    """(edits, the switch as written) replacing the call of ``table[i]``; else why not."""
    ctx = analysis.ctx
    call = ctx.parent(subscript)
    if not isinstance(call, cst.Call) or call.func is not subscript:
        return "the picked function is not called right there"
    if any(a.keyword is not None or a.star for a in call.args):
        return "the call passes arguments by keyword or starred, which `lax.switch` does not hand on"
    if len(subscript.slice) != 1 or not isinstance(subscript.slice[0].slice, cst.Index):
        return "the table is not indexed by one value"
    table = _table(analysis, subscript.value)
    if isinstance(table, str):
        return table
    spelled = planner(analysis).spell(SWITCH, call)
    if spelled is None:
        return "`jax.lax.switch` cannot be spelled here"
    index = ctx.code(subscript.slice[0].slice.value)
    operands = "".join(f", {ctx.code(a.value)}" for a in call.args)
    text = f"{spelled.text}({index}, {ctx.code(subscript.value)}{operands})"
    edits = (ctx.replace(call, text),) + ((spelled.edit,) if spelled.edit is not None else ())
    return edits, text
