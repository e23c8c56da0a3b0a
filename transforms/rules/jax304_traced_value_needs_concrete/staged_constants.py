"""A jax array the program holds as a constant, read inside staged code where a Python value is needed.

``ub = jnp.array([5.0, jnp.inf])`` at module level, handed down to a helper a
jitted function calls, which tests ``np.isfinite(float(ub[i]))`` (pounce#795):
under jit every index of a jax array is recorded into the program, so
``ub[i]`` is a tracer although ``ub`` never changes (`staged_values`), and the
conversion fails. Reported: the array must be read on the host (``np.asarray``
of it before the loop, or the constant built with NumPy), which changes its type
for every other reader, or the test written with jnp.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Finding, shorten
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.sinks import Follower
from jaxfix.transforms.semantics.staged_values import staged_tracer


def staged_constant_reads(analysis: Analysis, follower: Follower, seen_sinks: set[int]) -> list[Finding]:
    """One finding per place needing a Python value that an index of a constant jax array reaches."""
    ctx = analysis.ctx
    out: list[Finding] = []
    for sub in sorted(ctx.nodes_of(cst.Subscript), key=ctx.start):
        if not isinstance(sub.value, cst.Name) or analysis.traced.tracer_source(sub) is not None:
            continue  # data jit traces: the first pass's
        reason = staged_tracer(analysis, sub)
        if reason is None:
            continue
        sink = next(iter(follower.follow(sub).sinks), None)
        if sink is None or id(sink.node) in seen_sinks:
            continue
        seen_sinks.add(id(sink.node))
        array = ctx.code(sub.value)
        out.append(
            ctx.finding(
                "JAX304",
                sub,
                f"{reason}, but {sink.reason} (line {ctx.span(sink.node).start.line}); not rewritten: `{shorten(array)}` "
                "never changes, but reading it on the host changes its type for every other reader",
                notes=(
                    f"option: read it on the host where it is needed as Python values: `{array} = np.asarray({array})` "
                    "before the code that converts its entries",
                    "option: build the constant with NumPy (`np.array`) if every reader takes a NumPy array",
                    "option: keep it an array and write the test with jax.numpy (`jnp.where`), which takes tracers",
                ),
            )
        )
    return out
