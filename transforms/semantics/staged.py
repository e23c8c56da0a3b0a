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
from jaxfix.transforms.semantics.class_hashing import linen_module
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
        staged = traces.reached_from(traces.handed_to(STAGING) | traces.linen_initializers)
        setups = _linen_setups(analysis.ctx, staged)
        analysis.memo[key] = staged | traces.reached_from(setups) if setups else staged
    return analysis.memo[key]  # type: ignore[return-value]


def _linen_setups(ctx: ModuleContext, staged: frozenset[FunctionNode]) -> set[cst.FunctionDef]:
    """The ``setup`` of each flax linen module one of whose methods runs staged: flax runs it, at
    ``init`` and at each ``apply``, before the first method (docs/flax-linen-behaviour.md, layer
    sizes: ``jax.jit(model.init)`` stages a jnp product computed there)."""
    found: set[cst.FunctionDef] = set()
    for fn in staged:
        cls = ctx.parent(ctx.parent(fn)) if isinstance(fn, cst.FunctionDef) else None
        if not isinstance(cls, cst.ClassDef) or not linen_module(ctx, cls):
            continue
        found.update(
            s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "setup" and s not in staged
        )
    return found


def runs_staged(analysis: Analysis, fn: FunctionNode | None) -> bool:
    """Is `fn` (or a function around it) staged somewhere in the module?"""
    staged = staged_functions(analysis)
    while fn is not None:
        if fn in staged:
            return True
        fn = analysis.ctx.enclosing_function(fn)
    return False


def always_staged(analysis: Analysis, fn: FunctionNode | None) -> bool:
    """Does every run of `fn` happen while a staging transform traces? Each use the module makes
    of it (`TraceIndex.routes`) passes it through one (``jax.jit(f)``, ``lax.scan(f, ...)``), or
    is a call written in code that is itself always staged (a helper called only from jitted
    code), or `fn` is nested in such code and used only there; no use escapes. Then every jnp
    call in it gives a tracer, even of constants (docs/jax4xx-behaviour.md, B1)."""
    if fn is None:
        return False
    memo: dict[FunctionNode, bool] = analysis.memo.setdefault("always_staged", {})  # type: ignore[assignment]
    if fn not in memo:
        memo[fn] = False  # in progress: a recursive use proves nothing
        memo[fn] = _always_staged(analysis, fn)
    return memo[fn]


def _always_staged(analysis: Analysis, fn: FunctionNode) -> bool:
    routes = analysis.traces.routes(fn)
    if not routes:
        return False
    ctx = analysis.ctx
    entered = False  # some route comes from outside `fn` (a call in its own body cannot be the first)
    for route in routes:
        if route.escapes:
            return False
        if any(w.name in STAGING for w in route.wraps):
            entered = True
            continue
        if route.call is None:
            return False
        caller = ctx.enclosing_function(route.call)
        if caller is fn and not in_eager_block(ctx, route.call):
            continue  # a call in its own body (or one found by name there) runs within a run of it
        entered = True
        if not always_staged(analysis, caller) or in_eager_block(ctx, route.call):
            return False
    return entered


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
