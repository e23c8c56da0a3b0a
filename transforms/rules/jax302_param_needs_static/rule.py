"""JAX302 param-needs-static: a parameter jit traces, which the program needs as a Python value.

See the rule's docstring. The finding is claimed only where a call in view
shows the failure (it passes a number or an array to a parameter the body
needs concrete, or a function, object or string jit cannot trace), so code
whose callers pass ``None`` or a pytree is never reported; the fix is the
shared `repairs.static_parameter`, with every caller proven to pass a
hashable Python value.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, replace

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Finding, shorten
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.gate import screen_params
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.repairs.concrete_guard import NOTE as GUARD_NOTE
from jaxfix.transforms.repairs.concrete_guard import guard_concrete_only
from jaxfix.transforms.repairs.returned_function_jit import jit_the_returned_function, returned_function
from jaxfix.transforms.repairs.select_with_where import select_where_written
from jaxfix.transforms.repairs.static_parameter import (
    StaticPlan,
    describe_passed,
    hands_on,
    jitted_signature,
    plan_static_parameters,
)
from jaxfix.transforms.repairs.while_loop import DESCRIPTION as WHILE_DESCRIPTION
from jaxfix.transforms.repairs.while_loop import UNSAFE_NOTE as WHILE_NOTE
from jaxfix.transforms.repairs.while_loop import as_while_loop
from jaxfix.transforms.rules.jax302_param_needs_static import (
    equinox_jit,
    jit_over_staticmethod,
    jitted_classmethod,
    jitted_self,
    library_jit,
    linen_lifted,
    optax_hyperparams,
    stacked_jits,
)
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.class_hashing import instance_class, linen_module, namedtuple_fields, plain_class
from jaxfix.transforms.semantics.concrete_uses import (
    ConcreteUses,
    Need,
    Use,
    concretized_value,
    feeds_loop_count,
    read_as_loop_count,
)
from jaxfix.transforms.semantics.constants import assigned_value, display_items, dominating_binding, single_binding
from jaxfix.transforms.semantics.instance_keywords import argument_variants
from jaxfix.transforms.semantics.jit_wrappers import MethodKind, function_info
from jaxfix.transforms.semantics.literal_arrays import literal_array, only_converted
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.optional_defaults import presence_test
from jaxfix.transforms.semantics.passed_arguments import call_argument
from jaxfix.transforms.semantics.python_values import NotStatic, PythonValue, ValueKind, python_value
from jaxfix.transforms.semantics.pytree_classes import pytree_class
from jaxfix.transforms.semantics.size_arguments import value_shaped_call
from jaxfix.transforms.semantics.traced_values import iterated_or_unpacked, owner_name, value_operands
from jaxfix.transforms.semantics.vocabulary import FILTER_JIT, JIT


@dataclass(frozen=True)
class _Need:
    """One parameter that must be static: what needs it, and the call that shows the failure."""

    fn: FunctionNode
    param: str
    #: The body's read that needs a concrete value (None: the argument's type is the problem).
    use: Use | None
    #: A call passing a value that fails, with what it passes.
    shown_by: cst.Call
    passed: PythonValue | NotStatic


#: The loop counts JAX301 owns: a value needed concrete there is its finding, not JAX302's.


class ParamsNeedingStatic:
    """One module's JAX302 findings."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx
        self.uses = ConcreteUses(self.ctx, strict=True, traces=analysis.traces)

    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        for fn in sorted([*self.ctx.nodes_of(cst.FunctionDef), *self.ctx.nodes_of(cst.Lambda)], key=self.ctx.start):
            needs = self._needs(fn)
            if not needs:
                continue
            moved = self._jit_moved_to_returned(fn, needs)
            if moved:
                out.extend(moved)
                continue
            plan = plan_static_parameters(self.analysis, fn, tuple(n.param for n in needs))
            if isinstance(plan, str):
                plan = self._literals_unwrapped(fn, needs) or plan
            if isinstance(plan, str):  # jax#3345: a call passes a concrete one-integer array
                converted = plan_static_parameters(self.analysis, fn, tuple(n.param for n in needs), items=True)
                plan = converted if isinstance(converted, StaticPlan) else plan
            if isinstance(plan, StaticPlan) and not plan.edits:
                continue  # static on every jit already, as the jit sees them: nothing fails here
            if isinstance(plan, StaticPlan):
                unsupported = self._unsupported(fn, needs, plan)
                if unsupported is not None:
                    plan = unsupported
            if isinstance(plan, StaticPlan):
                plan = self._chained(fn, [n.use for n in needs if n.use is not None], plan, 0)
            if isinstance(plan, StaticPlan):
                data = self._data(fn, needs)
                if data is not None and self._jax_computed(data[1]):
                    continue  # a value JAX computes from data: JAX304's (a select, or its report)
                plan = data[0] if data is not None else plan
            doubt = self._unknown_beside(fn, {n.param for n in needs}) if isinstance(plan, StaticPlan) else None
            out.extend(self._finding(need, plan, doubt) for need in needs)
        for fn in sorted(self.ctx.nodes_of(cst.FunctionDef), key=self.ctx.start):
            out.extend(self._filtered(fn))
        return out

    def _jit_moved_to_returned(self, fn: FunctionNode, needs: list[_Need]) -> list[Finding]:
        """A jitted factory returning a function (jax#689): its parameters are sizes of what it
        builds, and jit could not return the function anyway; the jit moves onto what it returns
        (`repairs.returned_function_jit`). Nothing when it returns no function or that is not proven."""
        ctx = self.ctx
        returned = returned_function(ctx, fn)
        if returned is None or any(n.use is None for n in needs):
            return []
        edits = jit_the_returned_function(self.analysis, fn)
        if isinstance(edits, str):
            return []
        name = fn.name.value  # type: ignore[union-attr]
        out = []
        for need in needs:
            head = f"`{need.param}` is a parameter of the jitted `{name}` that is not static there, but {need.use.reason}"  # type: ignore[union-attr]
            out.append(
                ctx.finding(
                    "JAX302",
                    need.use.node,  # type: ignore[union-attr]
                    f"{head}; `{name}` returns a function (`{shorten(ctx.code(returned), 40)}`), which jit cannot "
                    f"return whatever is static: `{name}` runs in Python and jits the function it returns",
                    edits,
                    description=f"jit the function `{name}` returns instead of `{name}`",
                    notes=("its own JAX calls now run eagerly, once per call, on the values they always had",),
                )
            )
        return out

    def _filtered(self, fn: cst.FunctionDef) -> list[Finding]:
        """A parameter an ``eqx.filter_jit`` traces (it traces every array a call passes, and keeps
        anything else static), needed as a Python value: reported with equinox's two ways out
        (mistral_jax#1: ``positions[-1].item()`` in a Module's ``__call__`` run by
        ``eqx.filter_vmap(eqx.filter_jit(model))``). No static option exists to add."""
        ctx = self.ctx
        info = function_info(ctx, fn)
        skip = 1 if info.method in (MethodKind.INSTANCE, MethodKind.CLASS) else 0
        out: list[Finding] = []
        for p in info.signature.params[skip:]:
            source = self.analysis.traced.param_source(fn, p.name)
            if source is None or source.via is None or source.via.name != FILTER_JIT or source.keeps_value:
                continue
            use = self.uses.first_need(fn, p.name)
            if use is None or use.need is not Need.NEEDS or use.static_parameter or value_shaped_call(ctx, use.node):
                continue  # another jit's static slot: JAX404's; a value-shaped call: JAX304's
            if read_as_loop_count(ctx, fn, p.name) or feeds_loop_count(ctx, use.node):
                continue  # a loop count: JAX301's
            out.append(
                ctx.finding(
                    "JAX302",
                    use.node,
                    f"{source.reason}, but {use.reason}; not rewritten: `eqx.filter_jit` traces every array "
                    "argument and has no static option to add",
                    notes=(
                        f"option: pass `{p.name}` as a Python value (an int, a tuple) where the caller has one: "
                        "`eqx.filter_jit` keeps non-array arguments static, and compiles once per value",
                        f"option: run `{info.name}` without the `eqx.filter_jit` around it where it needs the value",
                    ),
                )
            )
        return out

    # -- which parameters -------------------------------------------------------------
    def _needs(self, fn: cst.FunctionDef) -> list[_Need]:
        traces = self.analysis.traces
        all_routes = traces.routes(fn) or ()
        jits = {id(w.node): w for r in all_routes for w in r.wraps if w.name == JIT}
        if not jits:
            return []  # not jitted here
        if any(j.jit is None or j.jit.spec is None for j in jits.values()):
            return []
        info = function_info(self.ctx, fn)
        # A parameter static on every jit needs nothing; the repair proves whether one edit per
        # jit settles the others (several jits: each applied right at its one call).
        # `jax.jit(obj.m, static_argnums=1)` counts without the receiver (`jitted_signature`).
        declared = frozenset.intersection(
            *(j.jit.spec.declared_static(jitted_signature(self.analysis, fn, j) or info.signature) for j in jits.values())  # type: ignore[union-attr]
        )
        skip = 1 if info.method in (MethodKind.INSTANCE, MethodKind.CLASS) else 0
        # Only calls through a jit fail; an eager call of the plain function does not.
        routes = [r for r in all_routes if r.jitted_call]
        out: list[_Need] = []
        for p in info.signature.params[skip:]:
            if p.name in declared or p.kind.name.startswith("VAR_"):
                continue
            if read_as_loop_count(self.ctx, fn, p.name):
                continue  # a loop count: JAX301's
            use = self.uses.first_need(fn, p.name)
            needs = use if use is not None and use.need is Need.NEEDS else None
            if needs is not None and needs.static_parameter:
                continue  # handed to another jit's static parameter: JAX404's
            if needs is not None and self._presence_test(needs.node):
                continue  # `if not (state or rng):` of parameters defaulting to None: JAX305's `is None` test
            if needs is not None and value_shaped_call(self.ctx, needs.node):
                continue  # `jnp.unique(x)`: no static value helps (it stages even a constant): JAX304's report
            if needs is not None and feeds_loop_count(self.ctx, needs.node) and not self._through_instance_call(fn, needs):
                continue  # a loop count, perhaps in a helper it is handed to: JAX301's
            shown = self._failing_call(fn, p.name, routes, needs is not None)
            if shown is not None:
                out.append(_Need(fn, p.name, needs, *shown))
        return out

    def _presence_test(self, node: cst.CSTNode) -> bool:
        """`node` is (part of) the test of an ``if``/``while`` that asks whether optional
        parameters were given (`optional_defaults.presence_test`)."""
        ctx = self.ctx
        for ancestor in (node, *ctx.ancestors(node)):
            parent = ctx.parent(ancestor)
            if isinstance(parent, (cst.If, cst.While, cst.IfExp)) and parent.test is ancestor:
                is_array = lambda e: array_origin(self.analysis, e) is not None  # noqa: E731
                return presence_test(ctx, self.analysis.traces, ancestor, is_array) is not None
            if isinstance(ancestor, (cst.BaseStatement, cst.BaseSmallStatement)):
                return False
        return False

    def _through_instance_call(self, fn: FunctionNode, use: Use) -> bool:
        """The need is in the ``__call__`` of an instance `fn` calls (``model(steps, y)``, equinox#990),
        which JAX301's loop counts do not follow: this rule reports it."""
        owner = self.ctx.enclosing_function(use.node)
        return (
            owner is not fn
            and isinstance(owner, cst.FunctionDef)
            and owner.name.value == "__call__"
            and isinstance(self.ctx.parent(self.ctx.parent(owner)), cst.ClassDef)
        )

    def _failing_call(self, fn: FunctionNode, param: str, routes, needed: bool):
        """(a call, what it passes) where the value fails: a number or array when the body needs it
        concrete; a function, object or string in any case (jit cannot trace those)."""
        info = function_info(self.ctx, fn)
        for route in routes:
            if any(w.name != JIT and not hands_on(self.ctx, w, info.signature, (param,)) for w in route.wraps):
                continue  # a partial binds some arguments (not traced), a vmap maps others: not this call's to show
            if any(
                w.name == JIT and param in w.jit.spec.declared_static(jitted_signature(self.analysis, fn, w) or info.signature)  # type: ignore[union-attr]
                for w in route.wraps
            ):
                continue  # static on this call's jit
            # `**self.kwargs`: each construction's keywords (`instance_keywords`).
            for argument in argument_variants(self.ctx, route.call, info.signature, param, bound=route.bound, consumed=route.consumed):
                # A default the call leaves out stays a Python value: jit traces what a call passes.
                if not isinstance(argument, cst.BaseExpression) or _is_none(argument):
                    continue
                value = python_value(self.analysis, argument)
                if isinstance(value, PythonValue):
                    untraceable = value.kind is ValueKind.CALLABLE or (value.kind is ValueKind.OBJECT and not value.may_trace)
                    if untraceable or _is_string(argument):
                        return route.call, value
                    if needed and value.kind in (ValueKind.NUMBER, ValueKind.LIBRARY, ValueKind.STATIC):
                        return route.call, value  # jit traces it, and the body needs it concrete
                    if needed and value.kind is ValueKind.OBJECT and _namedtuple(self.ctx, argument):
                        return route.call, value  # jit traces each field of a NamedTuple
                elif needed and value.certain and "array" in value.reason:
                    return route.call, value
                elif needed and _leaf_container(self.ctx, argument):
                    # `{"rows": 10, ...}`, `FrozenDict({...})`: jit traces every leaf (gymnax's params)
                    return route.call, PythonValue(ValueKind.OBJECT, f"`{shorten(self.ctx.code(argument), 50)}`, a container jit traces leaf by leaf")
        return None

    def _chained(self, fn: FunctionNode, uses: list[Use], plan: StaticPlan, depth: int) -> StaticPlan | str:
        """A need inside another jitted def the value is handed to (`Use.through_jit`): that def's
        parameter must become static too, or the call would pass it a tracer. Its own plan judges
        each call of it with `fn`'s parameters already static; the edits join this plan's."""
        for use in uses:
            if use.through_jit is None:
                continue
            inner_fn, param = use.through_jit
            if depth >= 3:
                return f"`{param}` is handed on through more jitted functions than jaxfix follows"
            made_static = frozenset(p.param for p in plan.passed)
            inner = plan_static_parameters(self.analysis, inner_fn, (param,), judge=_static_after(fn, made_static))
            if isinstance(inner, str):
                return f"`{param}` must become static on the jitted `{function_info(self.ctx, inner_fn).name}` too, and {inner}"
            inner_use = self.uses.first_need(inner_fn, param)
            inner = self._chained(inner_fn, [inner_use] if inner_use is not None else [], inner, depth + 1)
            if isinstance(inner, str):
                return inner
            edits = tuple(dict.fromkeys((*plan.edits, *inner.edits)))
            name = function_info(self.ctx, inner_fn).name
            plan = replace(plan, edits=edits, jit_text=f"{plan.jit_text}`, and on `{name}`, which it passes `{param}` to: `{inner.jit_text}")
        return plan

    def _jax_computed(self, value: cst.BaseExpression, depth: int = 0) -> bool:
        """The value is (or is made from) a ``jax.*`` call's result, through names bound to one."""
        ctx = self.ctx
        if depth > 8:
            return False
        if isinstance(value, cst.Call) and (ctx.names.qualified_name(value.func) or "").startswith("jax."):
            return True
        if isinstance(value, cst.Name):
            binding = single_binding(ctx, value) or dominating_binding(ctx, value)
            bound = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
            if bound is None and isinstance(binding, cst.Name):
                bound = iterated_or_unpacked(ctx, binding)  # `for x in s` over `s = jnp.linalg.svd(m)`
            return bound is not None and self._jax_computed(bound, depth + 1)
        return any(self._jax_computed(part, depth + 1) for part in value_operands(value))

    def _data(self, fn: FunctionNode, needs: list[_Need]) -> tuple[str, cst.BaseExpression] | None:
        """A needed value computed from another traced input as well (``float(0.5 * jnp.sum(d) +
        penalty * lam)`` with `d` an array): making these parameters static leaves it a tracer.
        (why, the value)."""
        ctx = self.ctx
        made_static = {n.param for n in needs}
        for need in needs:
            value = concretized_value(ctx, need.use.node) if need.use is not None else None
            if value is None:
                continue
            for source in self.analysis.traced.inputs(value):
                entry = source.entry  # where the tracer enters: a helper's parameter is handed it by fn
                if entry.jit is not None and (entry.function is not fn or entry.param in made_static):
                    continue  # made static here, or on the jit it is handed to (`_chained`)
                return (
                    f"`{shorten(ctx.code(need.use.node))}` also depends on traced data ({source.reason}), so making "  # type: ignore[union-attr]
                    f"`{need.param}` static would leave it a tracer",
                    value,
                )
        return None

    def _literals_unwrapped(self, fn: FunctionNode, needs: list[_Need]) -> StaticPlan | None:
        """The static plan again, where a call passes an array built from a number literal
        (``build(jnp.asarray(5.0, jnp.float32))``) to parameters whose every read converts them
        to Python numbers (`literal_arrays`): the call passes the literal instead."""
        ctx = self.ctx
        params = tuple(n.param for n in needs)
        if not all(only_converted(ctx, fn, p) for p in params):
            return None
        literals: dict[cst.BaseExpression, str] = {}

        def judge(analysis: Analysis, expr: cst.BaseExpression) -> PythonValue | NotStatic:
            text = literal_array(analysis.ctx, expr) if analysis is self.analysis else None
            if text is None:
                return python_value(analysis, expr)
            literals[expr] = text
            return PythonValue(ValueKind.NUMBER, f"`{text}`")

        plan = plan_static_parameters(self.analysis, fn, params, judge=judge)
        if not isinstance(plan, StaticPlan) or not literals:
            return None
        notes = tuple(
            f"the call on line {ctx.span(e).start.line} passed `{shorten(ctx.code(e), 60)}`, an array of the literal, which "
            f"every read converts to a Python number: it passes `{t}`, which the array holds exactly"
            for e, t in literals.items()
        )
        edits = (*plan.edits, *(ctx.replace(e, t) for e, t in literals.items()))
        return replace(plan, edits=edits, notes=notes)

    def _unknown_beside(self, fn: FunctionNode, made_static: set[str]) -> str | None:
        """An argument the fix leaves traced that jit may not trace either: an instance of a class
        of the module whose base jaxfix does not know (a pytree? a flax linen Module?). The call
        would then still fail, with the fix applied: it is unsafe."""
        ctx = self.ctx
        info = function_info(ctx, fn)
        for route in self.analysis.traces.routes(fn) or ():
            if route.call is None or route.escapes or not any(w.name == JIT for w in route.wraps):
                continue
            static = set(made_static)
            for wrap in route.wraps:
                if wrap.name == JIT and wrap.jit is not None and wrap.jit.spec is not None:
                    static |= wrap.jit.spec.declared_static(info.signature)
            for param in info.signature.params:
                if param.name in static:
                    continue
                argument = call_argument(route.call, info.signature, param.name, bound=route.bound, consumed=route.consumed)
                built = instance_class(ctx, argument) if isinstance(argument, cst.BaseExpression) else None
                if built is None:
                    continue
                cls = built[0]
                known = (
                    pytree_class(ctx, cls) is not None
                    or namedtuple_fields(ctx, cls) is not None
                    or plain_class(ctx, cls)
                    or linen_module(ctx, cls)
                )
                if not known:
                    line = ctx.span(route.call).start.line
                    return (
                        f"the call on line {line} also passes `{param.name}` a `{cls.name.value}`, whose base class "
                        "jaxfix does not know: if jit cannot trace it either, the call still fails"
                    )
        return None

    def _unsupported(self, fn: FunctionNode, needs: list[_Need], plan: StaticPlan) -> str | None:
        """A read a Python number would not support (``n.sum()``, ``n[0]``) where a call passes one."""
        ctx = self.ctx
        from jaxfix.transforms.semantics.reads import parameter_reads

        for need in needs:
            numbers = [p for p in plan.passed if p.param == need.param and p.value.kind is ValueKind.NUMBER]
            if not numbers or all(p.value.text.startswith("`(") for p in numbers):
                continue
            for read in parameter_reads(ctx, fn, need.param):
                parent = ctx.parent(read)
                if isinstance(parent, (cst.Attribute, cst.Subscript)) and parent.value is read:
                    if all(_supports(p.value.text, parent) for p in numbers):
                        continue  # `msg.startswith(...)` where every call passes a string
                    line = ctx.span(read).start.line
                    return f"`{need.param}` is also read as `{ctx.code(parent)}` (line {line}), which a Python number does not support"
        return None

    # -- the finding -------------------------------------------------------------------
    def _finding(self, need: _Need, plan: StaticPlan | str, doubt: str | None = None) -> Finding:
        ctx = self.ctx
        name = need.fn.name.value if isinstance(need.fn, cst.FunctionDef) else "lambda"
        head = f"`{need.param}` is a parameter of the jitted `{name}` that is not static there"
        applied = next((r.ref for r in self.analysis.traces.routes(need.fn) or () if r.from_call), None)
        if applied is not None:  # flax: `jax.jit(model.apply)` runs the module's `__call__`
            method = owner_name(ctx, need.fn)
            name = ctx.code(applied)
            head = f"`{need.param}` is a parameter of `{method}`, which the jit of `{name}` runs, and is not static there"
        line = ctx.span(need.shown_by).start.line
        if need.use is not None:
            problem = f"but {need.use.reason}"
            anchor: cst.CSTNode = need.use.node
        else:
            text = need.passed.text if isinstance(need.passed, PythonValue) else "a value"
            problem = (
                f"but the call on line {line} passes it {text}, which jit cannot trace as an array "
                '("Error interpreting argument ... as an abstract array")'
            )
            anchor = _argument_node(need, self.analysis) or need.shown_by
        if isinstance(plan, StaticPlan):
            passes = describe_passed(plan.passed, need.param)
            notes = [*plan.notes, "each distinct value compiles once; every call must keep passing a hashable Python value"]
            if plan.added:
                notes.append(f"adds `{plan.added}`")
            if doubt is not None:
                notes.insert(0, f"unsafe: {doubt}")
            return ctx.finding(
                "JAX302",
                anchor,
                f"{head}, {problem}; every call passes a hashable Python value ({passes}), so `{need.param}` "
                f"becomes static: `{plan.jit_text}`",
                plan.edits,
                Applicability.UNSAFE if doubt is not None or plan.converted else Applicability.SAFE,
                description=f"make `{need.param}` static on the jit of `{name}`",
                notes=tuple(notes),
            )
        loop = ctx.parent(need.use.node) if need.use is not None else None
        unlooped = ""
        if isinstance(loop, cst.While) and loop.test is need.use.node:  # type: ignore[union-attr]
            rewritten = as_while_loop(self.analysis, loop)
            unlooped = f"; nor as `lax.while_loop`: {rewritten}" if isinstance(rewritten, str) else ""
            if not isinstance(rewritten, str):
                edits, loop_text = rewritten
                return ctx.finding(
                    "JAX302",
                    anchor,
                    f"{head}, {problem}; not static: {plan}; the loop's test becomes a function of its values, "
                    f"which `lax.while_loop` runs compiled: `{loop_text}`",
                    edits,
                    Applicability.UNSAFE,
                    description=WHILE_DESCRIPTION,
                    notes=(WHILE_NOTE,),
                )
        if isinstance(loop, cst.If) and loop.test is need.use.node:  # type: ignore[union-attr]
            guarded = guard_concrete_only(self.analysis, loop)
            if not isinstance(guarded, str):
                edits, text = guarded
                return ctx.finding(
                    "JAX302",
                    anchor,
                    f"{head}, {problem}; not static: {plan}; but the `if` only checks and raises, so it checks "
                    f"concrete values and steps aside for a tracer: `if {shorten(text, 80)}:`",
                    edits,
                    Applicability.UNSAFE,
                    description="check only concrete values",
                    notes=(GUARD_NOTE,),
                )
            selected = select_where_written(self.analysis, loop)
            if isinstance(selected, str):
                unlooped = f"; nor selected with `jnp.where`: {selected}"
            else:
                edits, text = selected
                return ctx.finding(
                    "JAX302",
                    anchor,
                    f"{head}, {problem}; not static: {plan}; but the `if` only chooses a value, so it becomes "
                    f"`{shorten(text, 80)}`, which takes the condition traced or not",
                    edits,
                    Applicability.UNSAFE,
                    description=f"select with `{shorten(text, 80)}`",
                    notes=(
                        "unsafe: both arms are evaluated; where a call passes a Python value, the arm Python skipped "
                        "now runs too (its value is discarded), and the result is an array",
                    ),
                )
        options = (
            f"option: make `{need.param}` static on the jit of `{name}` (static_argnums/static_argnames) once every "
            "call passes a hashable Python value; each distinct value compiles once",
            f"option: compute what needs `{need.param}` before the jitted call and pass that, or bind it in a closure "
            f"(`jax.jit(partial({name}, {need.param}=...))`, created once)",
        )
        return ctx.finding("JAX302", anchor, f"{head}, {problem}; not rewritten: {plan}{unlooped}", notes=options)


def _namedtuple(ctx, expr: cst.BaseExpression) -> bool:
    built = instance_class(ctx, expr)
    return built is not None and namedtuple_fields(ctx, built[0]) is not None


def _static_after(fn: FunctionNode, params: frozenset[str]):
    """`python_value`, except that a read of one of `fn`'s `params` is static (this fix makes it so)."""

    def judge(analysis: Analysis, expr: cst.BaseExpression) -> PythonValue | NotStatic:
        if isinstance(expr, cst.Name) and expr.value in params:
            binding = single_binding(analysis.ctx, expr)
            if isinstance(binding, cst.Param) and analysis.ctx.enclosing_function(binding) is fn:
                return PythonValue(ValueKind.STATIC, f"`{expr.value}`, made static by the same fix")
        return python_value(analysis, expr)

    return judge


def _argument_node(need: _Need, analysis: Analysis) -> cst.CSTNode | None:
    info = function_info(analysis.ctx, need.fn)
    argument = call_argument(need.shown_by, info.signature, need.param, bound=False)
    return argument if isinstance(argument, cst.BaseExpression) else None


def _is_none(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def _is_string(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))


def _supports(text: str, read: cst.Attribute | cst.Subscript) -> bool:
    """The literal a call passes (as the plan shows it, "8" or "`'this'`") has the attribute read,
    or can be subscripted: a string's ``.startswith``, a string or tuple's ``[0]``."""
    try:
        value = ast.literal_eval(text.strip("`"))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    if isinstance(read, cst.Attribute):
        return hasattr(value, read.attr.value)
    return isinstance(value, (str, bytes, tuple))


class ParamNeedsStatic302(Rule):
    """A parameter jit traces is needed as a Python value: it must be static.

    jit turns every parameter it does not make static into a tracer. Where
    the body needs the value itself, a size or shape (``jnp.linspace(a, b,
    n)``, ``jnp.zeros((n, 2))``, ``random.normal(key, (n,))``), a Python
    condition (``if flag:``), ``int()`` or a slice bound, the call fails::

        jax.errors.ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
        TypeError: Shapes must be 1D sequences of concrete values of integer type, got (JitTracer(~int32[]), 2).

    and where a call passes something that is not an array at all (a
    function the body calls, a model object, a string), jit refuses it::

        TypeError: Error interpreting argument to <function f> as an abstract array. The problematic
        value is of type <class 'function'> and was passed to the function at path fn.

    The fix makes the parameter static on the jit, in the jit's own spelling
    (``static_argnums`` stays ``static_argnums``; ``@jax.jit`` becomes
    ``@partial(jax.jit, static_argnames=(...))``; ``g = jit(f)`` gains the
    keyword), when every call, in this module and the project's others,
    passes a hashable Python value (a literal, a constant, a function, a
    class, an object Python hashes) and nothing else enters the function (a
    ``vmap`` over it would hand it one value per example). Each distinct
    value compiles once (docs/jax302-behaviour.md). Where the value is the
    test of a Python ``while`` whose body only assigns names with pure
    values, each bound before the loop, the loop becomes ``lax.while_loop``
    instead (`repairs.while_loop`; unsafe: the values it carries must keep
    their dtype and shape from round to round, and a Python int the loop
    makes a float is refused). Where it is the test of an ``if`` that only
    raises (a validation guard, ``if n_turns < 1: raise ValueError(...)``),
    the guard checks concrete values and steps aside for a tracer: ``if not
    isinstance(n_turns, jax.core.Tracer) and n_turns < 1:`` (quantum-rf-pdk#766;
    `repairs.concrete_guard`; unsafe: under a trace the check no longer runs).
    Otherwise the finding is a report with the
    options. A parameter an ``eqx.filter_jit`` traces (every array argument;
    it has no static option) is reported with equinox's ways out: pass a
    Python value, or run the function without the filter_jit.

    The value is followed into helpers, through ``grad``/``value_and_grad``
    (an argument they do not differentiate is handed on as it is) and
    ``vmap`` (one it does not map), and into another jitted function. There,
    its parameter must become static too, or the outer call would hand it a
    tracer: the one finding carries both edits, proven when each call of the
    inner function passes a Python value or the outer parameter the same fix
    makes static (``fit(x, training)`` calling the jitted ``step(x,
    training)`` whose body tests ``not training``).

    A loop count is JAX301's. A finding is made only where a call shows the
    failure: a parameter callers leave ``None``, or whose pytree's static field
    the body reads, works traced and is left alone.

    Library code jit traces the same way: a mask handed to ``eqx.partition``
    or ``eqx.filter`` must be Python bools (equinox#1036), and
    ``optax.inject_hyperparams(optax.adafactor)`` gains
    ``static_args=("min_dim_size_to_factor",)``, the one hyperparameter of
    optax's optimizers that a traced state breaks (optax#412;
    docs/optax-behaviour.md).

    Three arrangements hand jit a value it cannot trace by construction:
    ``@classmethod`` above ``@jax.jit`` gives the jit the class, which becomes
    static (jax#15727, `jitted_classmethod`); ``@jax.jit`` above
    ``@staticmethod`` gives it the staticmethod object, refused when the class
    is defined, and ``@staticmethod`` moves outermost (jax#7702,
    `jit_over_staticmethod`); and flax's lifted
    ``nn.checkpoint``/``nn.remat`` count ``self`` as position 0, so their
    ``static_argnums`` are rewritten to name the parameters the module needs
    static (flax#3630, `linen_lifted`); a module under flax's lifted ``nn.jit``
    gets ``static_argnames`` for a parameter it needs static when every call
    passes it by keyword (flax#3171).

    A call that leaves the parameter to its default hands the function that
    Python value whatever wraps it (``jax.vmap(jax.jit(f))(xs)`` for
    ``f(x, option=False)``, jax#1120): only the jits of the calls that pass it
    are edited. A bound method's jit (``jax.jit(obj.draw, static_argnums=1)``)
    counts its positions without ``self`` (jax#15338).
    """

    code = "JAX302"
    name = "param-needs-static"
    summary = "a parameter jit traces is needed as a Python value (a size, a condition, a function): make it static"
    required = (("jit", "checkpoint", "remat"),)

    #: A parameter's reads are followed into the module's helpers it is handed to.
    follows_callees = True

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        return (
            screen_params.seeds(facts)
            + library_jit.seeds(facts)
            + jitted_self.seeds(facts)
            + equinox_jit.seeds(facts)
            + optax_hyperparams.seeds(facts)
            + linen_lifted.seeds(facts)
            + jitted_classmethod.seeds(facts)
            + stacked_jits.seeds(facts)
            + jit_over_staticmethod.seeds(facts)
        )

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        found = (
            ParamsNeedingStatic(analysis).findings()
            + library_jit.findings(analysis)
            + jitted_self.findings(analysis)
            + equinox_jit.findings(analysis)
            + optax_hyperparams.findings(analysis)
            + linen_lifted.findings(analysis)
            + linen_lifted.jit_findings(analysis)
            + stacked_jits.findings(analysis)
        )
        taken = [(e.start, e.end) for f in found if f.fix is not None for e in f.fix.edits if not e.file]
        return found + jitted_classmethod.findings(analysis, taken) + jit_over_staticmethod.findings(analysis)


#: Constructors of mappings a jit traces leaf by leaf, as it does a dict.
_MAPPINGS = frozenset({"builtins.dict", "flax.core.FrozenDict", "flax.core.frozen_dict.FrozenDict", "flax.core.freeze"})


def _leaf_container(ctx, argument: cst.BaseExpression, depth: int = 0) -> bool:
    """`argument` is, through names bound once, a dict, list or tuple display, or a ``dict(...)``
    or flax ``FrozenDict(...)`` of one, holding at least one number: a pytree whose numbers jit
    hands the function as tracers."""
    if isinstance(argument, cst.Name) and depth < 4:
        binding = single_binding(ctx, argument)
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        return value is not None and _leaf_container(ctx, value, depth + 1)
    if isinstance(argument, cst.Call) and ctx.names.qualified_name(argument.func) in _MAPPINGS and len(argument.args) == 1:
        return _leaf_container(ctx, argument.args[0].value, depth + 1)
    values = display_items(argument)
    return values is not None and any(isinstance(v, (cst.Integer, cst.Float)) for v in values)
