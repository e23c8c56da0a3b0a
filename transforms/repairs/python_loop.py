"""A ``lax.fori_loop`` run eagerly whose body needs its index concrete becomes a Python loop.

``fori_loop`` traces its body once, so the index is a tracer even when both
bounds are Python ints and nothing around the call is traced; a body that
slices, reshapes or indexes a Python list with it fails (jax#15509: a shape
read from a table by the step). Written as a Python loop, the body runs once
per step with the index a Python int, which is what the author meant:

    vector = jax.lax.fori_loop(0, len(shapes), f, vector)
    ->
    for i in range(0, len(shapes)):
        vector = f(i, vector)

Proof obligations, each refused with the reason:

* the call is ``fori_loop(lower, upper, body, init)`` with nothing else passed,
  written as the value of an assignment to one name or a tuple of names;
* both bounds are Python ints the module shows (`int_values`: literals, ``len(x)``,
  ``x.shape[0]``...), with ``lower < upper`` where their values are shown, or
  else a carry that is a name (a loop that never runs leaves the carry as it
  was, where ``fori_loop`` would give a Python number back as an array);
* the body is a name bound to a def (read where the call is, as before);
* the call runs eagerly: no function around it is ever staged (`staged.runs_staged`).
  Under a trace the Python loop would unroll the program (one copy of the
  body per step): that choice is left to a person.

The carry is evaluated once, before the loop, as the call evaluated it; the
steps run in order with the body's result as the next carry, as ``fori_loop``
runs them. The new index name is one the module never spells.
"""

from __future__ import annotations

import re

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.class_hashing import called_def
from jaxfix.transforms.semantics.int_values import IntStatic, Kind, int_value
from jaxfix.transforms.semantics.staged import runs_staged

FORI_LOOP = "jax.lax.fori_loop"
_INDEX_NAMES = ("i", "step", "index", "loop_index")
_CARRY_NAMES = ("carry", "loop_carry", "fori_carry")


def python_loop(analysis: Analysis, call: cst.Call) -> tuple[tuple[Edit, ...], str] | str:
    """(the edits, the loop's first line) that run `call` as a Python loop; else why not."""
    ctx = analysis.ctx
    if ctx.names.qualified_name(call.func) != FORI_LOOP:
        return "it is not a `lax.fori_loop` call"
    args = call.args
    if len(args) != 4 or any(a.keyword is not None or a.star for a in args):
        return "the call passes more than its bounds, body and carry"
    lower, upper, body, init = (a.value for a in args)
    ints = IntStatic(analysis)
    if any(ints.kind(bound).kind is not Kind.INT for bound in (lower, upper)):
        return "its bounds are not Python ints the module shows"
    low, high = int_value(analysis, lower), int_value(analysis, upper)
    if (low is None or high is None) and not isinstance(init, cst.Name):
        return "the loop may not run, and then `fori_loop` gives its carry back as an array"
    if low is not None and high is not None and not low < high:
        return "the loop never runs, and then `fori_loop` gives its carry back as an array"
    fn = called_def(ctx, body)
    if fn is None:
        return "its body is not a def of this module"
    assign = ctx.parent(call)
    if not isinstance(assign, cst.Assign) or assign.value is not call or len(assign.targets) != 1:
        return "its result is not assigned to a name"
    target = assign.targets[0].target
    if not _names_only(target):
        return "its result is not assigned to a name or a tuple of names"
    rebound = [name for name in _target_names(target) if re.search(rf"\b{name}\b", ctx.code(fn))]
    if rebound:
        return f"the body reads `{rebound[0]}`, which the loop would rebind at each step"
    if runs_staged(analysis, ctx.enclosing_function(call)):
        return "it runs under a trace, where a Python loop would unroll the body once per step"
    if "#" in ctx.code(assign):
        return "the call holds comments a rewrite would lose"
    index = _unspelled(ctx.text, _INDEX_NAMES)
    carry = ctx.code(target) if isinstance(target, cst.Name) else _unspelled(ctx.text, _CARRY_NAMES)
    if index is None or carry is None:
        return "no short name is free for the loop's index"
    indent = ctx.indent_of(ctx.statement_of(call))
    lines: list[str] = []
    if ctx.code(init) != carry:
        lines.append(f"{carry} = {ctx.code(init)}")
    lines.append(f"for {index} in range({ctx.code(lower)}, {ctx.code(upper)}):")
    lines.append(f"    {carry} = {ctx.code(body)}({index}, {carry})")
    if not isinstance(target, cst.Name):
        lines.append(f"{ctx.code(target)} = {carry}")
    text = ("\n" + indent).join(lines)
    return (Edit(ctx.start(assign), ctx.end(assign), text),), lines[0] if lines[0].startswith("for ") else lines[1]


def _names_only(target: cst.BaseExpression) -> bool:
    if isinstance(target, cst.Name):
        return True
    if isinstance(target, (cst.Tuple, cst.List)):
        return all(isinstance(e, cst.Element) and _names_only(e.value) for e in target.elements)
    return False


def _target_names(target: cst.BaseExpression) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    return [n for e in getattr(target, "elements", ()) for n in _target_names(e.value)]


def _unspelled(text: str, candidates: tuple[str, ...]) -> str | None:
    """The first candidate the module never spells as a word (so it shadows and is shadowed by nothing)."""
    return next((name for name in candidates if not re.search(rf"\b{name}\b", text)), None)
