"""JAX304's repair for Python's ``min``/``max`` of a tracer: ``jnp.minimum``/``jnp.maximum``.

``min(decay_steps, step)`` in a learning-rate schedule a jitted train step
calls (scenic, commit da0a6a3): ``min`` compares its arguments with ``<``
and asks Python for the truth of the result, which a tracer has not got
(TracerBoolConversionError). ``jnp.minimum(decay_steps, step)`` picks the same
value element-wise without asking. The result is an array where ``min``
would have given one of its arguments: exact where that value only goes
where an array serves as well (`array_destinations.minmax_as_array`:
arithmetic, jax.numpy, a value a jitted function returns); elsewhere (a
shape, an ``if``) no rewrite could help, and JAX302 or the forward search
speaks for it.

Any abstract tracer, whatever traces it (jit, vmap, a loop body), fails in
``min``; differentiation alone keeps the value, and ``min`` works there, so
a value only grad traces is left alone.
"""

from __future__ import annotations

from jaxfix.transforms.core.findings import Finding, shorten
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_destinations import minmax_as_array
from jaxfix.transforms.semantics.traced_values import Taint


def traced_minmax(analysis: Analysis, seen_sinks: set[int]) -> list[Finding]:
    """The findings, one per ``min``/``max`` call of a tracer not already reported (`seen_sinks`)."""
    ctx = analysis.ctx
    out: list[Finding] = []
    for call in ctx.calls:
        if id(call) in seen_sinks:
            continue
        twin = minmax_as_array(ctx, analysis.traces, call)
        if twin is None:
            continue
        found = next(((a.value, s) for a in call.args if (s := analysis.traced.source(a.value)) is not None), None)
        if found is None:
            continue
        operand, traced = found
        if traced.taint is not Taint.TRACED or traced.keeps_value:
            continue
        spelled = planner(analysis).spell(twin, call)
        if spelled is None:
            continue
        seen_sinks.add(id(call))
        edits = [ctx.replace(call.func, spelled.text)]
        if spelled.edit is not None:
            edits.append(spelled.edit)
        python = ctx.code(call.func)
        fixed = f"{spelled.text}({', '.join(ctx.code(a.value) for a in call.args)})"
        out.append(
            ctx.finding(
                "JAX304",
                call,
                f"`{shorten(ctx.code(call))}` compares with Python's `<`, which needs a concrete value, but "
                f"`{shorten(ctx.code(operand))}` is a tracer there ({traced.reason}); its result "
                f"only goes where an array serves as well, so `{python}` becomes `{shorten(fixed, 60)}`, which "
                "picks the same value without asking Python",
                tuple(edits),
                description=f"compute it with `{spelled.text}`",
            )
        )
    return out
