"""A slice of a traced start and a static length: ``data[i:i + BLOCK]`` -> ``lax.dynamic_slice_in_dim``.

A Python slice needs concrete bounds; with a traced ``i`` it fails (jax-llm#10's
``get_batch``: random window starts drawn inside a jit). Its length,
``(i + BLOCK) - i``, is a Python int, and ``jax.lax.dynamic_slice_in_dim(data,
i, BLOCK)`` takes a traced start with that static size. The two agree whenever
the window lies inside the array; near the end ``dynamic_slice`` clamps the
start so that the window keeps its size, where the slice would come out
shorter (and a jitted program could not have a shorter one anyway): the fix
is unsafe, and says so.

Proof obligations: every place the value reaches is such a slice (a
subscript of one slice on the first axis, no step) whose bounds are one
offset plus Python ints (`offset_bounds`), of an array; nothing else uses the
value where a concrete one would be needed, or where it cannot be followed.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.offset_bounds import offset_and_shift, size_text
from jaxfix.transforms.semantics.sinks import Flow

DYNAMIC_SLICE = "jax.lax.dynamic_slice_in_dim"


def slices_as_dynamic(
    analysis: Analysis, flow: Flow, is_int: Callable[[cst.BaseExpression], bool]
) -> tuple[tuple[Edit, ...], str] | str:
    """(the edits, the first rewritten slice) turning every slice `flow` reaches into a dynamic
    slice; else why not."""
    ctx = analysis.ctx
    if flow.blocked is not None:
        return flow.blocked
    subscripts: dict[int, cst.Subscript] = {}
    for sink in flow.sinks:
        element = ctx.parent(sink.node) if isinstance(sink.node, cst.Slice) else None
        subscript = ctx.parent(element) if isinstance(element, cst.SubscriptElement) else None
        if not isinstance(subscript, cst.Subscript) or len(subscript.slice) != 1:
            return f"it also reaches a place that is no one-axis slice ({sink.reason})"
        subscripts[id(subscript)] = subscript
    edits: list[Edit] = []
    first = ""
    for subscript in sorted(subscripts.values(), key=ctx.start):
        bounds = subscript.slice[0].slice
        assert isinstance(bounds, cst.Slice)
        if bounds.step is not None or bounds.lower is None or bounds.upper is None:
            return f"`{ctx.code(subscript)}` has a step or an open bound"
        start = offset_and_shift(ctx, bounds.lower, is_int)
        stop = offset_and_shift(ctx, bounds.upper, is_int)
        if start is None or stop is None or start[0] != stop[0]:
            return f"the bounds of `{ctx.code(subscript)}` are not one offset plus Python ints"
        if array_origin(analysis, subscript.value) is None and analysis.traced.tracer_source(subscript.value) is None:
            return f"`{ctx.code(subscript.value)}` is not shown to be an array"
        spelled = planner(analysis).spell(DYNAMIC_SLICE, ctx.statement_of(subscript))
        if spelled is None:
            return f"no name for `{DYNAMIC_SLICE}` is free here"
        size, _ = size_text(start[1], stop[1])
        text = f"{spelled.text}({ctx.code(subscript.value)}, {ctx.code(bounds.lower)}, {size})"
        edits.append(ctx.replace(subscript, text))
        if spelled.edit is not None and spelled.edit not in edits:
            edits.append(spelled.edit)
        first = first or text
    return tuple(edits), first
