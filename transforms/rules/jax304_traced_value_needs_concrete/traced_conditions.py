"""Python conditions and conversions of a value JAX computes under a jit (JAX304, reports).

``if is_converged(hprev, h, N, tol): break`` in a jitted power iteration
(array-api#999): the helper returns ``err < tol``, computed from the jitted
function's data, so the test is a tracer and Python cannot take its truth
(TracerBoolConversionError). The forward search from each JAX call stops at a
helper's ``return``; this asks the question backwards, at each Python
condition that calls a helper of the module: is its test a boolean array
(`boolean_arrays.is_boolean`, or a call of a helper each of whose returns is
one) and certainly a tracer
there (`traced_values`, through a jit: grad's tracers keep their values, a
vmapped value is JAX305's)?

The same backward question at ``bool(v)`` and ``float(v)`` (gymnax#83's
``bool(done > 0)``, where ``done`` sums collision flags in a loop: the forward
search stops at ``done += ...``). A ``float(v)`` whose float only goes where
the array serves as well loses the conversion, as JAX304's forward search
does it (`float_conversion.drop_float`).

No rewrite: a data-dependent branch or early exit becomes ``lax.cond``,
``jnp.where`` or ``lax.while_loop`` only by restructuring what the author
wrote. A condition on a jitted parameter that JAX302 would make static (its
first need, as `concrete_uses` reads it) is JAX302's, not repeated here.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Finding, shorten
from jaxfix.transforms.rules.jax304_traced_value_needs_concrete.float_conversion import (
    drop_float,
    dropped_float_finding,
)
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.boolean_arrays import is_boolean
from jaxfix.transforms.semantics.class_hashing import called_def
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need, feeds_loop_count
from jaxfix.transforms.semantics.constants import own_returns
from jaxfix.transforms.semantics.traced_values import Source, Taint

_NOTES = (
    "option: `jax.lax.cond(test, true_fn, false_fn, ...)` or `jnp.where(test, a, b)` where the branch chooses "
    "between values",
    "option: `jax.lax.while_loop` for a loop that stops on the data (a `break` or a `while` on it)",
    "option: run this part outside the jit, where the value is concrete",
)


def traced_conditions(analysis: Analysis, seen_sinks: set[int]) -> list[Finding]:
    """The findings, one per condition not already reported (`seen_sinks`)."""
    ctx = analysis.ctx
    jax302 = ConcreteUses(ctx, strict=True, traces=analysis.traces)
    out: list[Finding] = []
    for statement in sorted([*ctx.nodes_of(cst.If), *ctx.nodes_of(cst.While)], key=ctx.start):
        test = statement.test
        if id(statement) in seen_sinks or not _calls_a_def(ctx, test) or not _boolean(analysis, test, 0):
            continue  # a test with no helper call is the forward search's (the screen seeds these)
        source = _traced_by_a_jit(analysis, test)
        if source is None or _jax302s(analysis, jax302, source.entry, test):
            continue
        seen_sinks.add(id(statement))
        keyword = "while" if isinstance(statement, cst.While) else "if"
        message = (
            f"`{keyword} {shorten(ctx.code(test))}:` needs a concrete bool, but its test is a boolean JAX computes "
            f"while tracing ({source.reason}): Python cannot take its truth (TracerBoolConversionError)"
        )
        out.append(ctx.finding("JAX304", test, message, notes=_NOTES))
    return out


_CONVERSIONS = {"builtins.bool": "a Python bool", "builtins.float": "a Python float"}
CONVERSION_NOTES = (
    "option: keep it an array where it goes on as data (`jnp.bool_(...)`, `jnp.asarray(...)`, or no "
    "conversion at all)",
    "option: compute it outside the jit, where the value is concrete",
)


def traced_conversions(analysis: Analysis, seen_sinks: set[int]) -> list[Finding]:
    """``bool(v)`` and ``float(v)`` of a value certainly traced under a jit, not already reported
    (`seen_sinks`) and not JAX302's (the first need of the jitted parameter it comes from)."""
    ctx = analysis.ctx
    jax302 = ConcreteUses(ctx, strict=True, traces=analysis.traces)
    out: list[Finding] = []
    for call in ctx.calls:
        item = isinstance(call.func, cst.Attribute) and call.func.attr.value == "item" and not call.args
        wanted = "a Python number" if item else _CONVERSIONS.get(ctx.names.qualified_name(call.func) or "")
        if wanted is None or id(call) in seen_sinks or (item and feeds_loop_count(ctx, call)):
            continue  # `lax.scan(f, c, length=n.item())`: a loop count, JAX301's
        if not item and (len(call.args) != 1 or call.args[0].keyword or call.args[0].star):
            continue
        operand = call.func.value if item else call.args[0].value  # type: ignore[attr-defined]
        source = _traced_by_a_jit(analysis, operand)
        if source is None or _jax302s(analysis, jax302, source.entry, call):
            continue
        seen_sinks.add(id(call))
        message = (
            f"`{shorten(ctx.code(call))}` asks for {wanted}, but `{shorten(ctx.code(operand))}` is a tracer there "
            f"({source.reason}): it has no Python value while the jit traces"
        )
        dropped = drop_float(analysis, call) if item or wanted == _CONVERSIONS["builtins.float"] else None
        if dropped is None:
            out.append(ctx.finding("JAX304", call, message, notes=CONVERSION_NOTES))
            continue
        edit, unsure = dropped  # the float only goes where the array serves as well (`float_conversion`)
        out.append(dropped_float_finding(ctx, call, message, "the Python float", edit, unsure))
    return out


def _traced_by_a_jit(analysis: Analysis, expr: cst.BaseExpression) -> Source | None:
    """The source of `expr` when it is an abstract tracer that enters through a jit (grad's
    tracers keep their values; a vmapped value is JAX305's)."""
    source = analysis.traced.source(expr)
    if source is None or source.taint is not Taint.TRACED:
        return None
    entry = source.entry
    return source if entry.jit is not None and entry.via is None else None


def _jax302s(analysis: Analysis, jax302: ConcreteUses, entry: Source, node: cst.CSTNode) -> bool:
    """JAX302's: the jitted parameter the tracer comes from is first needed concrete at `node`, and
    a call through the jit passes it (JAX302 shows that call, and makes it static or reports)."""
    use = jax302.first_need(entry.function, entry.param)
    if use is None or use.need is not Need.NEEDS or not _within(analysis.ctx, use.node, node):
        return False
    routes = analysis.traces.routes(entry.function) or ()
    return any(r.jitted_call for r in routes)


def _boolean(analysis: Analysis, test: cst.BaseExpression, depth: int) -> bool:
    """A boolean array: a comparison, a test, a reduction (`is_boolean`), or a call of a plain def
    of the module each of whose returns is one."""
    ctx = analysis.ctx
    if is_boolean(ctx, test, reductions=True):
        return True
    if depth > 3 or not isinstance(test, cst.Call):
        return False
    fn = called_def(ctx, test.func)
    if fn is None:
        return False
    returns = own_returns(fn)
    return bool(returns) and all(r.value is not None and _boolean(analysis, r.value, depth + 1) for r in returns)


def _calls_a_def(ctx, test: cst.BaseExpression) -> bool:
    """The test calls a def of the module, or a staticmethod of one of its classes (what JAX304's
    screen seeds a condition for)."""
    found: list[bool] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if called_def(ctx, node.func) is not None:
                found.append(True)

    test.visit(Calls())
    return bool(found)


def _within(ctx, node: cst.CSTNode, outer: cst.CSTNode) -> bool:
    return node is outer or any(a is outer for a in ctx.ancestors(node))
