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

import libcst as cst

from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.vocabulary import CONTROL_FLOW

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


#: Context managers under which jnp calls run eagerly even while a jit traces
#: (docs/jax4xx-behaviour.md, B: the result is an ArrayImpl, not a tracer).
EAGER_BLOCKS = frozenset({"jax.ensure_compile_time_eval", "jax.core.eval_context", "jax._src.core.eval_context"})


def in_eager_block(ctx: ModuleContext, node: cst.CSTNode) -> bool:
    """Is `node` inside ``with jax.ensure_compile_time_eval():`` (or jax's own ``core.eval_context()``)?

    Only the ``with`` blocks of its own function count: a function called from
    such a block may be called elsewhere too.
    """
    fn = ctx.enclosing_function(node)
    for ancestor in ctx.ancestors(node):
        if ancestor is fn:
            break
        if isinstance(ancestor, cst.With):
            for item in ancestor.items:
                call = item.item
                if isinstance(call, cst.Call) and _eager(ctx, call.func):
                    return True
    return False


def _eager(ctx: ModuleContext, func: cst.BaseExpression) -> bool:
    qualified = ctx.names.qualified_name(func)
    if qualified in EAGER_BLOCKS:
        return True
    # `from jax._src import core` then `core.eval_context()`: spelled, whatever `core` resolves to.
    return qualified is not None and qualified.endswith("core.eval_context")
