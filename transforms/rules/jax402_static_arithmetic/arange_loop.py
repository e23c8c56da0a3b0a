"""``for i in jnp.arange(3)[::-1]:`` under jit, where ``i`` must be a Python int: use ``range``.

Under a staging transform ``jnp.arange`` is recorded even when its operands
are Python ints, so a Python loop over it hands the body traced scalars, and
``strides[i]`` on a tuple fails with ``TracerIntegerConversionError``
(docs/jax4xx-behaviour.md, B4). ``range`` gives the same ints untraced, and a
range slices as the array does (``range(3)[::-1]`` is 2, 1, 0). The rewrite is
made only where the loop variable's value cannot tell the two apart: every
operand of the arange a proven Python int, no ``dtype`` or keyword, the
variable bound by this loop alone, and every read of it in the loop body an
index (``seq[i]``, ``x[i]``: the same element for a Python int and an int32
scalar) or a place that needs it concrete; integer arithmetic with ints on the
way is allowed. Anything else (``i * 0.5``, a call we cannot see, a read after
the loop) makes the finding a report. There is a finding only when the loop
fails today, that is when some read needs a concrete int.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import shorten
from jaxfix.transforms.edits.imports import builtin_spelling
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.constants import single_binding
from jaxfix.transforms.semantics.int_values import IntStatic, Kind
from jaxfix.transforms.semantics.reads import reads
from jaxfix.transforms.semantics.sinks import Sink, argument_sink, index_sink
from jaxfix.transforms.semantics.staged import in_eager_block, runs_staged

ARANGE = "jax.numpy.arange"
#: Integer operators under which a Python int and an int32 scalar give the same index.
_INDEX_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo)


@dataclass(frozen=True)
class ArangeLoop:
    """One loop's rewrite: the arange call, the text that replaces it, and why it is needed."""

    call: cst.Call
    text: str
    sink: Sink
    #: Why each operand is a Python int, for the message.
    reasons: str
    #: Why the rewrite is not made (a read a Python int could change); None: it is.
    blocked: str | None = None


def arange_loops(analysis: Analysis, ints: IntStatic) -> list[ArangeLoop]:
    """Every loop of the module over ``jnp.arange`` of static ints that fails and ``range`` fixes."""
    ctx = analysis.ctx
    out: list[ArangeLoop] = []
    for loop in ctx.nodes_of(cst.For):
        found = _loop(analysis, ints, loop)
        if found is not None:
            out.append(found)
    return out


def _loop(analysis: Analysis, ints: IntStatic, loop: cst.For) -> ArangeLoop | None:
    ctx = analysis.ctx
    iterated, sliced = loop.iter, None
    if isinstance(iterated, cst.Subscript):
        if len(iterated.slice) != 1 or not isinstance(iterated.slice[0].slice, cst.Slice):
            return None
        sliced, iterated = iterated.slice[0].slice, iterated.value
    if not isinstance(iterated, cst.Call) or ctx.names.qualified_name(iterated.func) != ARANGE:
        return None
    call = iterated
    if not 1 <= len(call.args) <= 3 or any(a.keyword is not None or a.star for a in call.args):
        return None
    if sliced is not None and not all(_int_literal(b) for b in (sliced.lower, sliced.upper, sliced.step)):
        return None
    if not isinstance(loop.target, cst.Name) or loop.orelse is not None or loop.asynchronous is not None:
        return None
    fn = ctx.enclosing_function(loop)
    if not runs_staged(analysis, fn) or in_eager_block(ctx, loop):
        return None
    proofs = [ints.kind(a.value) for a in call.args]
    if any(p.kind is not Kind.INT for p in proofs):
        return None
    sink, blocked = _sink(analysis, ints, loop)
    if sink is None:
        return None
    spelled = builtin_spelling(analysis, "range", call)
    if spelled is None:
        blocked = blocked or "`range` is rebound here"
    text = f"range({', '.join(ctx.code(a.value) for a in call.args)})"
    reasons = "; ".join(f"`{ctx.code(a.value)}` ({p.reason})" for a, p in zip(call.args, proofs))
    return ArangeLoop(call, text, sink, reasons, blocked)


def _int_literal(bound: cst.BaseExpression | None) -> bool:
    if bound is None or isinstance(bound, cst.Integer):
        return True
    return isinstance(bound, cst.UnaryOperation) and isinstance(bound.operator, cst.Minus) and isinstance(bound.expression, cst.Integer)


def _sink(analysis: Analysis, ints: IntStatic, loop: cst.For) -> tuple[Sink | None, str | None]:
    """(the first read of the loop variable that needs a concrete int, why the rewrite would not
    be exact): the reason is a read the rewrite could change (see the module docstring)."""
    ctx = analysis.ctx
    target = loop.target
    assert isinstance(target, cst.Name)
    first: Sink | None = None
    blocked: str | None = None
    for read in reads(ctx, target):
        line = ctx.span(read).start.line
        if single_binding(ctx, read) is not target:  # type: ignore[arg-type]
            blocked = blocked or f"`{target.value}` is bound elsewhere too (line {line})"
            continue
        if not any(a is loop.body for a in ctx.ancestors(read)):
            blocked = blocked or f"`{target.value}` is read after the loop (line {line})"
            continue
        found = _use(analysis, ints, read)
        if isinstance(found, Sink):
            first = first or found
        elif isinstance(found, str):
            blocked = blocked or f"`{target.value}` is used in `{shorten(found)}` (line {line}), where a Python int could compute otherwise"
    return first, blocked


def _use(analysis: Analysis, ints: IntStatic, node: cst.CSTNode) -> Sink | str | None:
    """What one read does with the value: needs it concrete (the place), only indexes with it
    (None), or something a Python int could change (that expression's text)."""
    ctx = analysis.ctx
    while True:
        parent = ctx.parent(node)
        if isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, _INDEX_ARITHMETIC):
            other = parent.right if parent.left is node else parent.left
            if ints.kind(other).kind is not Kind.INT:
                return ctx.code(parent)
            node = parent
            continue
        if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Minus):
            node = parent
            continue
        if isinstance(parent, cst.Index):
            element = ctx.parent(parent)
            subscript = ctx.parent(element)
            if not isinstance(subscript, cst.Subscript) or len(subscript.slice) != 1:
                return ctx.code(subscript)  # x[i, j]: still the same element, but kept simple
            return index_sink(ctx, parent)
        if isinstance(parent, cst.Arg) and parent.value is node:
            call = ctx.parent(parent)
            assert isinstance(call, cst.Call)
            return argument_sink(ctx, call, parent) or ctx.code(call)
        return ctx.code(parent) if isinstance(parent, cst.BaseExpression) else type(parent).__name__
