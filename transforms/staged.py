"""Which functions of a module run staged: recorded into a program instead of run.

Inside ``jit``, ``make_jaxpr``, ``pmap``, ``eval_shape``, ``checkpoint`` and the
control-flow primitives every jnp call is staged out, so its result is a
tracer even when every operand is a Python int; under ``vmap`` and ``grad``
alone, and eagerly, the same call returns a concrete array
(docs/jax4xx-behaviour.md, B1). A function runs staged when the module hands
it to one of those transforms, or when such a function's code reaches it
(`tracing.TraceIndex.reached_from`: every function it names, transitively).
"""

from __future__ import annotations

from .analysis import Analysis
from .context import FunctionNode
from .jaxapi import CONTROL_FLOW

STAGING = frozenset(
    {
        "jax.jit",
        "jax.pmap",
        "jax.make_jaxpr",
        "jax.eval_shape",
        "jax.checkpoint",
        "jax.remat",
        "jax.lax.map",
        "jax.shard_map",
        "jax.experimental.shard_map.shard_map",
        *CONTROL_FLOW,
    }
)


def staged_functions(analysis: Analysis) -> frozenset[FunctionNode]:
    """Every function whose code may run while a staging transform traces (computed once)."""
    key = "staged_functions"
    if key not in analysis.memo:
        traces = analysis.traces
        analysis.memo[key] = traces.reached_from(traces.handed_to(STAGING))
    return analysis.memo[key]  # type: ignore[return-value]


def runs_staged(analysis: Analysis, fn: FunctionNode | None) -> bool:
    """Is `fn` (or a function around it) staged somewhere in the module?"""
    staged = staged_functions(analysis)
    while fn is not None:
        if fn in staged:
            return True
        fn = analysis.ctx.enclosing_function(fn)
    return False
