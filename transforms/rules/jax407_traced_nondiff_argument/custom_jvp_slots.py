"""JAX407 for custom_jvp: a nondiff slot handed an array that a trace makes a tracer, under differentiation.

custom_jvp takes tracers in its nondiff slots as long as nothing differentiates
it; differentiated with the slot traced by an inner jit or a scan carry, it fails
(UnexpectedTracerError, or "No constant handler" under jit: jax#20889, measured in
docs/jax407-behaviour.md, "custom_jvp"). The slot then becomes an ordinary argument,
as the ordinary form of the same function runs in every row of that table: the
option leaves ``nondiff_argnums``, and the jvp rule takes ``(primals, tangents)``
with the argument among them; its first lines give the body back the names it had::

    def func_jvp(primals, tangents):
        mask = primals[1]
        primals, tangents = primals[:1] + primals[2:], tangents[:1] + tangents[2:]

so every line of the body computes what it computed; the argument's own tangent
is dropped, which is what declaring it non-differentiable meant. Proven only for
one slot, a rule that is a def of the module taking exactly (the nondiff value,
primals, tangents), a function used only by calls (no escape), each passing an
array there (a tracer, an array value); otherwise reported.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Edit, Finding
from jaxfix.transforms.edits.statements import is_docstring
from jaxfix.transforms.edits.static_arguments import StaticEditor
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.custom_jvp import CustomJvp, custom_jvps
from jaxfix.transforms.semantics.jit_signature import Signature
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.passed_arguments import call_argument
from jaxfix.transforms.semantics.vocabulary import DIFFERENTIATION

OPTION = "nondiff_argnums"


def custom_jvp_findings(analysis: Analysis, code: str) -> Iterator[Finding]:
    ctx = analysis.ctx
    for cj in custom_jvps(ctx):
        sig = Signature.from_cst(cj.primal.params)
        differentiated: list[tuple[cst.Call, int, cst.BaseExpression, str]] = []
        for call in cj.calls:
            for position in cj.positions:
                slot = _slot(ctx, call, sig, position)
                source = analysis.traced.tracer_source(slot) if slot is not None else None
                if source is not None and _differentiated(analysis, ctx.enclosing_function(call), 0):
                    differentiated.append((call, position, slot, source.reason))  # type: ignore[arg-type]
        for call in cj.jitted_calls:
            for position in cj.positions:
                slot = _slot(ctx, call, sig, position)
                if slot is None or not _array(analysis, slot):
                    continue
                if _through_differentiation(ctx, call) or _differentiated(analysis, ctx.enclosing_function(call), 0):
                    line = ctx.span(call).start.line
                    reason = f"the jit `{cj.binding.value}` is rebound to, on line {line}, traces the array passed there"
                    differentiated.append((call, position, slot, reason))
        if not differentiated:
            continue
        yield _finding(analysis, code, cj, differentiated[0], _passes_arrays_only(analysis, cj, sig))


def _array(analysis: Analysis, slot: cst.BaseExpression) -> bool:
    return analysis.traced.tracer_source(slot) is not None or array_origin(analysis, slot) is not None


def _through_differentiation(ctx, call: cst.Call) -> bool:
    """``jax.jacobian(f)(x, m)``: the call is of a differentiated function."""
    return isinstance(call.func, cst.Call) and ctx.names.qualified_name(call.func.func) in DIFFERENTIATION


def _passes_arrays_only(analysis: Analysis, cj: CustomJvp, sig: Signature) -> bool:
    """Every plain call passes each slot an array, a tracer, or, inside the jvp rule, the rule's own
    nondiff parameter (``f(x, indices)`` in ``f_jvp(indices, primals, tangents)``: what the outer
    call passed)."""
    ctx = analysis.ctx
    own = cj.rule.params.params[0].name.value if cj.rule is not None and cj.rule.params.params else None
    for call in (*cj.calls, *cj.jitted_calls):
        inside = cj.rule is not None and any(a is cj.rule for a in ctx.ancestors(call))
        for position in cj.positions:
            slot = _slot(ctx, call, sig, position)
            if slot is None:
                return False
            if inside and isinstance(slot, cst.Name) and slot.value == own:
                continue
            if not _array(analysis, slot):
                return False
    return True


def _slot(ctx, call: cst.Call, sig: Signature, position: int) -> cst.BaseExpression | None:
    """What the call hands the slot: the argument, or the tuple ``*carry`` spreads over it."""
    positional = [a for a in call.args if a.keyword is None]
    if len(positional) == 1 and positional[0].star == "*" and not any(a.keyword for a in call.args):
        return positional[0].value  # `func(*carry)`: every element of a traced tuple is a tracer
    params = sig.positional
    if position >= len(params):
        return None
    argument = call_argument(call, sig, params[position].name, bound=False, ctx=ctx)
    return argument if isinstance(argument, cst.BaseExpression) else None


def _differentiated(analysis: Analysis, fn: FunctionNode | None, depth: int) -> bool:
    """Some way into `fn` goes through differentiation: a grad around it, or a caller (a plain call,
    a primitive such as scan running it) that is differentiated itself."""
    if fn is None or depth > 6:
        return False
    ctx = analysis.ctx
    for route in analysis.traces.routes(fn) or ():
        if any(w.name in DIFFERENTIATION for w in route.wraps):
            return True
        outer = route.call if route.call is not None else (route.wraps[-1].node if route.wraps else None)
        if outer is not None and _differentiated(analysis, ctx.enclosing_function(outer), depth + 1):
            return True
    return False


def _finding(analysis: Analysis, code: str, cj: CustomJvp, first: tuple, arrays: bool) -> Finding:
    ctx = analysis.ctx
    call, position, slot, reason = first
    params = Signature.from_cst(cj.primal.params).positional
    name = params[position].name if position < len(params) else f"argument {position}"
    head = (
        f"`{ctx.code(slot)}` is a tracer ({reason}), handed to `{name}`, which `jax.custom_jvp` lists in "
        f"`{OPTION}` of `{cj.binding.value}`, and `{cj.binding.value}` is differentiated: custom_jvp cannot "
        "differentiate through a traced nondiff argument (UnexpectedTracerError)"
    )
    repaired = _ordinary(analysis, cj, position) if arrays else "a call may pass something other than an array there"
    if isinstance(repaired, str):
        return ctx.finding(
            code,
            slot,
            f"{head}; not rewritten: {repaired}",
            notes=(
                f"option: make `{name}` an ordinary argument: drop it from `{OPTION}`, and let the jvp rule take it "
                "among the primals and ignore its tangent",
                "option: close over it where it is not traced, or pass a Python value",
            ),
        )
    edits, header = repaired
    return ctx.finding(
        code,
        slot,
        f"{head}; `{name}` becomes an ordinary argument: the jvp rule takes it among the primals "
        f"(`{header}`) and its first lines give the body back `{name}` and the primals and tangents it had",
        edits,
        description=f"make `{name}` an ordinary argument of `{cj.binding.value}`",
        notes=("its tangent is dropped, as declaring it non-differentiable meant; every other value is computed as before",),
    )


def _ordinary(analysis: Analysis, cj: CustomJvp, position: int) -> tuple[tuple[Edit, ...], str] | str:
    ctx = analysis.ctx
    if cj.escapes:
        return f"`{cj.binding.value}` is used other than by calls"
    if len(cj.positions) != 1:
        return "more than one argument is listed; their order in the jvp rule is not read"
    rule = cj.rule
    if rule is None:
        return "the jvp rule is not a def of the module named by `defjvp`"
    params = rule.params
    plain = [*params.posonly_params, *params.params]
    if (
        len(plain) != 3
        or params.kwonly_params
        or isinstance(params.star_arg, (cst.Param, cst.ParamStar))
        or isinstance(params.star_kwarg, cst.Param)
        or any(p.default is not None for p in plain)
    ):
        return f"`{rule.name.value}` does not take exactly (the nondiff value, primals, tangents)"
    if not isinstance(rule.body, cst.IndentedBlock) or not rule.body.body:
        return f"`{rule.name.value}` is written on one line"
    nondiff, primals, tangents = (p.name.value for p in plain)
    k = position
    statements = list(rule.body.body)
    anchor = statements[0]
    if is_docstring(anchor) and len(statements) > 1:
        anchor = statements[1]
    indent = ctx.indent_of(anchor)
    prologue = (
        f"{nondiff} = {primals}[{k}]\n"
        f"{indent}{primals}, {tangents} = {primals}[:{k}] + {primals}[{k + 1}:], {tangents}[:{k}] + {tangents}[{k + 1}:]\n"
        f"{indent}"
    )
    start = ctx.start(anchor)
    edits: list[Edit] = [
        Edit(ctx.start(plain[0]), ctx.start(plain[1]), ""),  # `mask, primals, tangents` -> `primals, tangents`
        Edit(start, start, prologue),
    ]
    option_edits = _option_edits(analysis, cj)
    if isinstance(option_edits, str):
        return option_edits
    edits.extend(option_edits)
    return tuple(edits), f"def {rule.name.value}({primals}, {tangents})"


def _option_edits(analysis: Analysis, cj: CustomJvp) -> tuple[Edit, ...] | str:
    """`nondiff_argnums` leaves the custom_jvp; ``@partial(jax.custom_jvp)`` left bare becomes
    ``@jax.custom_jvp``."""
    ctx = analysis.ctx
    call = cj.option_call
    others = [a for a in call.args if a.keyword is None or a.keyword.value != OPTION]
    if cj.decorator is not None and len(others) == 1 and others[0].keyword is None:
        return (ctx.replace(call, ctx.code(others[0].value)),)
    return StaticEditor(ctx).drop_numbers(call, OPTION, frozenset(cj.positions))
