"""JAX404 traced-to-static: a jitted helper's static parameter gets a value traced where it is called.

``pad(x, n)`` inside another jitted function, with ``n`` a traced parameter
of that function (or anything computed from one: ``n + 1``, ``x.sum()``),
hands jit a tracer to hash (docs/jax4xx-behaviour.md, D1). Two fixes exist and
the code alone cannot choose between them: make the value static where it
comes from (the outer jit's static arguments: its callers must then pass a
hashable Python value, one compile per value), or make the helper's
parameter dynamic (only if nothing in the helper needs it concrete). The
finding names both, and what it can see for and against each.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Finding, shorten
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.gate.screen import Facts, calls_on, plainly_static, reads_parameter
from jaxfix.transforms.gate.screen_tracing import count_may_be_traced
from jaxfix.transforms.repairs.constant_carry import (
    CARRY_LOOPS,
    DroppedCarry,
    carried_name,
    drop_constant_carry,
)
from jaxfix.transforms.repairs.static_parameter import StaticPlan, describe_passed, plan_static_parameters
from jaxfix.transforms.repairs.traced_parameter import made_traced
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need, read_as_loop_count
from jaxfix.transforms.semantics.constants import single_binding
from jaxfix.transforms.semantics.int_values import int_value
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, call_argument
from jaxfix.transforms.semantics.reads import parameter, reads_seeing
from jaxfix.transforms.semantics.static_slots import Slot, jitted_call
from jaxfix.transforms.semantics.static_values import Kind
from jaxfix.transforms.semantics.traced_values import Source, Taint, function_name
from jaxfix.transforms.semantics.vocabulary import CONTROL_FLOW, DIFFERENTIATION, FILTER_JIT, JIT


class TracedToStatic:
    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx
        self.uses = ConcreteUses(self.ctx)

    def findings(self) -> list[Finding]:
        ctx = self.ctx
        out: list[Finding] = []
        for call in ctx.calls:
            if ctx.enclosing_function(call) is None:
                continue  # a module-level call passes concrete values
            jitted = jitted_call(ctx, call)  # `dfx(t, x)` of a parameter too (`callables.passed_target`)
            if jitted is None:
                continue
            for slot in jitted.static_slots:
                source = self.analysis.traced.tracer_source(slot.expr)  # any tracer: jit hashes it
                if source is None or read_as_loop_count(ctx, jitted.target.function.node, slot.param):
                    continue
                if source.concretized is not None and source.concretized is not slot.expr and _filter_jitted(source.entry):
                    continue  # `positions[-1].item()` raises first, where JAX302 reports the parameter
                if self._left_to_default(source) or self._default_kept(source):
                    continue
                entry = source.entry
                if entry.taint is Taint.FED and entry.via is not None and entry.via.name in DIFFERENTIATION:
                    continue  # grad differentiates a static parameter of the outer jit, which fails first: JAX401's
                out.append(self._finding(call, jitted.target.function.node, jitted.callee_name, slot, source))
                break
        return out

    def _left_to_default(self, source: Source) -> bool:
        """A primitive's callable whose parameter the primitive never fills (``lambda x, n=n: ...``).

        `tracing.Wrap.traces` counts every parameter of a callable handed to
        ``lax.cond`` as an operand; one past the operands the call passes keeps its default.
        """
        via = source.via
        if via is None or via.name not in CONTROL_FLOW or not isinstance(via.node, cst.Call):
            return False
        passed = {"jax.lax.cond": len(via.node.args) - 3, "jax.lax.switch": len(via.node.args) - 2}.get(
            via.name, {"jax.lax.fori_loop": 2, "jax.lax.while_loop": 1, "jax.lax.scan": 2}.get(via.name, 0)
        )
        info = function_info(self.ctx, source.function)
        index = info.signature.positional_index(source.param)
        param = info.signature.param(source.param)
        return index is not None and index >= passed and param is not None and param.has_default

    def _default_kept(self, source: Source) -> bool:
        """A defaulted parameter of the outer jitted function that no call we can see passes.

        jit traces only the arguments it is given: one left to its default
        stays a Python value (docs/jax4xx-behaviour.md, D), so nothing shows
        that a tracer ever reaches the helper (jax's debug_info_test jits
        ``my_g(b, d=1)`` and calls it with `b` alone).
        """
        if source.taint is not Taint.TRACED or source.via is not None:
            return False
        info = function_info(self.ctx, source.function)
        param = info.signature.param(source.param)
        if param is None or not param.has_default:
            return False
        for route in self.analysis.traces.routes(source.function) or ():
            if route.call is None or route.escapes:
                continue
            if call_argument(route.call, info.signature, source.param, bound=route.bound, consumed=route.consumed) is not DEFAULT:
                return False  # a call passes it (or may): traced there
        return True

    def _finding(self, call: cst.Call, callee: FunctionNode, name: str, slot: Slot, source: Source) -> Finding:
        ctx = self.ctx
        value = ctx.code(slot.expr)
        message = (
            f"`{shorten(ctx.code(call))}` passes `{value}` to static parameter `{slot.param}` of the jitted "
            f"`{name}`, but `{value}` is traced here ({source.reason}); jit must hash a static argument, "
            "and a tracer cannot be hashed"
        )
        plan = self._proven_upstream(source, slot.expr)
        if isinstance(plan, StaticPlan):
            outer = function_name(source.function)
            passes = describe_passed(plan.passed, source.param)
            notes = ["each distinct value compiles once; every call must keep passing a hashable Python value"]
            if plan.added:
                notes.append(f"adds `{plan.added}`")
            return ctx.finding(
                "JAX404",
                slot.expr,
                f"{message}; every call of `{outer}` passes a hashable Python value ({passes}), so `{source.param}` "
                f"becomes static on its jit: `{plan.jit_text}`",
                plan.edits,
                Applicability.SAFE,
                description=f"make `{source.param}` static on the jit of `{outer}`",
                notes=tuple(notes),
            )
        carried = self._carried_unchanged(source, slot.expr)
        if carried is not None:
            return ctx.finding(
                "JAX404",
                slot.expr,
                f"{message}; but `{carried.name}` goes through the `{source.via.name.rsplit('.', 1)[-1]}` carry "  # type: ignore[union-attr]
                f"unchanged (the body hands it back as it gets it), so it leaves the carry and `{name}` gets "
                "the static value the loop started from",
                carried.edits,
                Applicability.SAFE,
                description=f"keep `{carried.name}` out of the loop's carry",
                notes=(f"each step saw the value the loop started with; {carried.given}",),
            )
        traced = made_traced(self.analysis, callee, slot.param)
        if traced is not None:
            edits, unsure = traced
            notes = ["a traced argument compiles once per shape and dtype, not once per value"]
            if unsure:
                notes.insert(0, f"unsafe: {unsure[0]}")
            return ctx.finding(
                "JAX404",
                slot.expr,
                f"{message}; nothing in `{name}` needs `{slot.param}` concrete, so it becomes a regular (traced) "
                f"argument of `{name}`",
                edits,
                Applicability.UNSAFE if unsure else Applicability.SAFE,
                description=f"make `{slot.param}` a traced argument of `{name}`",
                notes=tuple(notes),
            )
        return ctx.finding(
            "JAX404",
            slot.expr,
            message,
            notes=(self._upstream(source), self._dynamic(callee, name, slot.param)),
        )

    def _carried_unchanged(self, source: Source, value: cst.BaseExpression) -> DroppedCarry | None:
        """The value is an element of a ``scan``/``fori_loop`` carry the body unpacks and hands
        back unchanged, started from a static value (a static parameter of the jit around the
        loop): out of the carry, the body gets that value itself (`repairs.constant_carry`)."""
        ctx = self.ctx
        via, body = source.via, source.function
        if via is None or via.name not in CARRY_LOOPS or not isinstance(via.node, cst.Call) or not isinstance(body, cst.FunctionDef):
            return None
        if not isinstance(value, cst.Name):
            return None
        param = parameter(body, source.param)
        seen = reads_seeing(ctx, param) if param is not None else []
        unpacking = carried_name(self.analysis, seen[0], body, via.name) if len(seen) == 1 else None
        if unpacking is None:
            return None
        bound = single_binding(ctx, value)
        index = next((i for i, e in enumerate(unpacking.elements) if e.value is bound), None)
        if index is None:
            return None
        dropped = drop_constant_carry(self.analysis, via.node, body, unpacking, index)
        if isinstance(dropped, str):
            return None
        if self.analysis.staticness.verdict(dropped.start).kind is not Kind.STATIC:
            return None  # it must hash where the jit gets it
        return dropped

    def _proven_upstream(self, source: Source, value: cst.BaseExpression) -> StaticPlan | None:
        """Option 1, when it is proven: the value is Python arithmetic on a parameter of the enclosing
        jit, and every call of that function passes it a hashable Python value (`repairs.static_parameter`)."""
        if source.taint is not Taint.TRACED or source.via is not None:
            return None
        if not _python_arithmetic_on(self.ctx, value, source.param):
            return None
        plan = plan_static_parameters(self.analysis, source.function, (source.param,))
        return plan if isinstance(plan, StaticPlan) else None

    def _upstream(self, source: Source) -> str:
        """Option 1: make the value static where it comes from."""
        ctx = self.ctx
        fn, param = source.function, source.param
        outer = function_name(fn)
        if source.taint is Taint.FED or source.via is not None:
            layer = f"`{source.via.name}`" if source.via is not None else "a caller"
            return (
                f"option 1, make `{param}` static where it comes from: not possible here, since {layer} "
                f"hands `{outer}` a traced `{param}`"
            )
        head = (
            f"option 1, make `{param}` static on the jit of `{outer}` (its static_argnums/static_argnames): "
            "every caller must then pass a hashable Python value, and each distinct value compiles again"
        )
        routes = self.analysis.traces.routes(fn) or ()
        info = function_info(ctx, fn)
        passed: list[str] = []
        for route in routes:
            if route.escapes or route.call is None or any(w.name != JIT for w in route.wraps):
                return f"{head}; `{outer}` is also used where its arguments cannot be seen"
            argument = call_argument(route.call, info.signature, param, bound=route.bound, consumed=route.consumed)
            line = ctx.span(route.call).start.line
            number = int_value(self.analysis, argument) if isinstance(argument, cst.BaseExpression) else None
            array = array_origin(self.analysis, argument) if isinstance(argument, cst.BaseExpression) else None
            if array is not None:
                return f"{head}; but the call on line {line} passes `{ctx.code(argument)}` ({array}), and an array cannot be static"
            if number is None:
                shown = ctx.code(argument) if isinstance(argument, cst.BaseExpression) else "a value we cannot see"
                return f"{head}; the call on line {line} passes `{shown}`, which may not be a Python value"
            passed.append(f"{number} on line {line}")
        if not passed:
            return f"{head}; no call of `{outer}` can be seen"
        return f"{head}; every call in this module passes a Python int ({', '.join(passed)})"

    def _dynamic(self, callee: FunctionNode, name: str, param: str) -> str:
        """Option 2: make the helper's parameter dynamic."""
        head = f"option 2, make `{param}` a traced parameter of `{name}` (remove it from its static arguments)"
        use = self.uses.first_need(callee, param)
        if use is None:
            return f"{head}: nothing in `{name}` needs it concrete"
        if use.need is Need.NEEDS:
            return f"{head}: not possible as written, since {use.reason}"
        return f"{head}: check {use.reason.replace('it is', f'`{param}` is', 1)}"


def _python_arithmetic_on(ctx, expr: cst.BaseExpression, param: str) -> bool:
    """`expr` is `param`, or Python arithmetic on it and literals: a Python value once `param` is one."""
    if isinstance(expr, cst.Name):
        return expr.value == param
    if isinstance(expr, (cst.Integer, cst.Float)):
        return True
    if isinstance(expr, cst.UnaryOperation):
        return _python_arithmetic_on(ctx, expr.expression, param)
    if isinstance(expr, cst.BinaryOperation):
        return _python_arithmetic_on(ctx, expr.left, param) and _python_arithmetic_on(ctx, expr.right, param)
    if isinstance(expr, cst.Tuple):
        return all(isinstance(e, cst.Element) and _python_arithmetic_on(ctx, e.value, param) for e in expr.elements)
    return False


def _seeds(facts: Facts) -> list[ast.AST]:
    """Calls, inside a function, of names jitted with static arguments, whose static slots may get a tracer."""
    names = facts.static_jitted_names
    if not names:
        return []
    out: list[ast.AST] = []
    from jaxfix.transforms.gate.screen import _defs_around

    handed_on = facts.static_jitted_handed_on
    through_parameters = [c for c in facts.calls if handed_on and reads_parameter(facts, c.func)]
    if through_parameters:  # `dfx(t, x)` may run a jitted function a call hands the parameter
        out.extend([*through_parameters, *handed_on])
    for call in calls_on(facts, facts.lines_of_words(names)):
        slots = facts.slots_for_call(call)
        if not slots or not (_defs_around(facts, call.lineno) or _in_lambda(facts, call)):
            continue
        arguments = [a for s in slots for a in ([*call.args, *(k.value for k in call.keywords)] if s is None else s.arguments(call))]
        arguments = [a for a in arguments if not plainly_static(a)]
        if arguments and count_may_be_traced(facts, call, arguments):
            out.append(call)
    return out


def _in_lambda(facts: Facts, call: ast.Call) -> bool:
    """Is the call written inside a lambda (which a transform may trace)?"""
    return any(
        isinstance(node, ast.Lambda) and node.lineno <= call.lineno <= (node.end_lineno or node.lineno)
        and any(inner is call for inner in ast.walk(node))
        for statement in facts.statements_on({call.lineno})
        for node in ast.walk(statement)
    )


class TracedToStatic404(Rule):
    """A jitted helper's static parameter receives a value that is traced where the call is.

    Inside a jitted function every parameter that is not static is a tracer,
    and so is anything computed from one. Handing it to a static parameter
    of another jitted function fails at the call::

        @partial(jax.jit, static_argnums=1)
        def pad(x, n): return jnp.concatenate([x, jnp.zeros(n)])

        @jax.jit
        def outer(x, n): return pad(x, n)   # ValueError: Non-hashable static arguments ... JitTracer(~int32[])

    (also under ``vmap`` over the value, or ``grad`` with respect to it: a
    ``BatchTracer``/``LinearizeTracer``). Which fix is right depends on code
    and intent that one call site may not show, so this rule reports, with
    both options and what the module says about each, unless the first one
    is proven:

    1. make the value static where it comes from (``static_argnums`` on the
       outer jit): works only if every caller passes a hashable Python value,
       and compiles once per value; impossible when vmap or grad is the
       source;
    2. make the helper's parameter traced (drop it from its static
       arguments): works only if nothing in the helper needs it concrete
       (a shape such as ``jnp.zeros(n)``, ``range(n)``, a Python ``if``).

    Option 1 is applied (safe) when the value is Python arithmetic on a
    parameter of the enclosing jit, that function is entered only through
    calls of that jit, and every call, in this module and the project's
    others, passes a hashable Python value (the shared
    ``repairs.static_parameter``, which JAX302 uses too).

    A static value put into a ``scan`` (or ``fori_loop``) carry arrives in
    the body as a tracer; where the body unpacks it and hands it back
    unchanged, it leaves the carry and the body gets the value itself: a
    body nested where the loop is closes over it, one defined elsewhere
    gets a parameter bound with ``functools.partial(body, cfg=cfg)``
    (safe; twisted-smc-lm 1f3bc94, `repairs.constant_carry`).

    The helper may be reached through a parameter: ``dfx(t, x, params)`` in
    a solver whose every call hands ``dfx`` one jitted right-hand side
    (ngc-learn#87, `callables.passed_target`); option 2 is then the
    fix where nothing in the helper needs the value concrete.

    A static parameter used as a loop count is JAX301's (which may rewrite
    the loop); a value built by jnp from static operands is JAX402's; an
    array passed from eager code is JAX403's.
    """

    code = "JAX404"
    name = "traced-to-static-param"
    summary = "a jitted helper's static parameter receives a value that is traced at the call"
    required = (("static_arg",),)
    follows_callees = True

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        return _seeds(facts)

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return TracedToStatic(analysis).findings()


def _filter_jitted(entry: Source) -> bool:
    """The tracer enters as a parameter an ``eqx.filter_jit`` traces: JAX302 reports the conversion
    (``.item()``, ``int()``) on the way, which raises before the value reaches the static slot
    (mistral_jax#1); a conversion written as the slot's argument stays JAX404's."""
    return entry.taint is Taint.TRACED and entry.via is not None and entry.via.name == FILTER_JIT
