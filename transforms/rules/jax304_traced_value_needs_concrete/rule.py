"""JAX304 traced-value-needs-concrete: a value JAX computes while tracing, where Python needs a concrete one.

Mostly the report for what the fixing rules cannot fix (the fixes it makes
itself are in the rule's docstring): a size, shape or count
computed from data (``jnp.sum(mask)``, ``random.poisson(...).sum()``), a Python
``if``/``while``/``and``/``not`` on an array JAX computed, ``int()`` of one. No
static argument can make such a value concrete: it depends on what the
program computes. The options are a formulation that takes a traced value,
which changes the program's structure and so is a person's choice.

Ownership (one bug, one finding): a jnp operation on operands that are all
static Python values is JAX402's (it rewrites them into Python arithmetic); a
traced *parameter* reaching such a place is JAX301's (a loop count) or
JAX302's; a static parameter handed a traced value is JAX404's. JAX304 takes
what starts at a JAX operation on traced data.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import replace

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Edit, Finding, shorten
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.gate.screen import Facts, _defs_around, handed_defs, qualified_spellings, spelled_name
from jaxfix.transforms.gate.screen_sinks import (
    constant_reaches_sink,
    field_reaches_sink,
    parameter_reaches_sink,
    reaches_sink,
)
from jaxfix.transforms.repairs.constant_carry import CARRY_LOOPS, DroppedCarry, carried_name, drop_constant_carry
from jaxfix.transforms.repairs.dynamic_slice import slices_as_dynamic
from jaxfix.transforms.repairs.hoist_to_callers import hoist_to_callers
from jaxfix.transforms.repairs.list_as_array import index_the_array
from jaxfix.transforms.repairs.numpy_integers import computed_with_numpy
from jaxfix.transforms.repairs.python_loop import FORI_LOOP, python_loop
from jaxfix.transforms.repairs.select_with_where import gradient_caveat, select, select_where_written
from jaxfix.transforms.repairs.table_switch import index_in_range, switch_call
from jaxfix.transforms.repairs.trace_time_eval import evaluate_while_tracing, helper_at_trace_time, helper_uses
from jaxfix.transforms.repairs.traced_parameter import made_traced
from jaxfix.transforms.repairs.while_loop import DESCRIPTION as WHILE_DESCRIPTION
from jaxfix.transforms.repairs.while_loop import UNSAFE_NOTE as WHILE_NOTE
from jaxfix.transforms.repairs.while_loop import as_while_loop
from jaxfix.transforms.rules.jax304_traced_value_needs_concrete.carried_lists import (
    CARRIED_LIST_OPTIONS,
    carried_list_index,
    tuple_elements,
)
from jaxfix.transforms.rules.jax304_traced_value_needs_concrete.eager_block_tests import eager_block_tests
from jaxfix.transforms.rules.jax304_traced_value_needs_concrete.float_conversion import (
    compared_in_condition,
    drop_float,
    dropped_float_finding,
)
from jaxfix.transforms.rules.jax304_traced_value_needs_concrete.python_minmax import traced_minmax
from jaxfix.transforms.rules.jax304_traced_value_needs_concrete.staged_constants import (
    eager_constant_reads,
    staged_constant_reads,
)
from jaxfix.transforms.rules.jax304_traced_value_needs_concrete.traced_conditions import (
    CONVERSION_NOTES,
    traced_conditions,
    traced_conversions,
)
from jaxfix.transforms.rules.jax304_traced_value_needs_concrete.unjitted_helper import (
    call_plain_function,
    drop_helper_jit,
)
from jaxfix.transforms.rules.jax304_traced_value_needs_concrete.wrapped_shape import static_shape_unwrapped
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_api import ARRAY_METHODS, metadata_call
from jaxfix.transforms.semantics.array_values import array_origin, indexed_update, made_array
from jaxfix.transforms.semantics.concrete_uses import feeds_loop_count
from jaxfix.transforms.semantics.constants import assigned_value, every_binding, single_binding
from jaxfix.transforms.semantics.int_values import IntStatic
from jaxfix.transforms.semantics.int_values import Kind as IntKind
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.jnp_arithmetic import read_op
from jaxfix.transforms.semantics.logical_operators import outermost
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.numpy_twins import delegates
from jaxfix.transforms.semantics.reads import parameter_reads, reads
from jaxfix.transforms.semantics.sinks import (
    COMPARING,
    Flow,
    Follower,
    Sink,
    needed_values,
    numpy_function,
    python_mapping,
    python_sequence,
)
from jaxfix.transforms.semantics.size_arguments import (
    SIZE_FLAGS,
    VALUE_SHAPED,
    size_keyword,
    sized_values,
    value_shaped_call,
)
from jaxfix.transforms.semantics.staged import in_eager_block, runs_staged
from jaxfix.transforms.semantics.static_slots import jitted_call
from jaxfix.transforms.semantics.traced_values import METADATA_ATTRIBUTES, METADATA_CALLS, Taint, carry_init
from jaxfix.transforms.semantics.transform_options import python_value_at_every_call
from jaxfix.transforms.semantics.vocabulary import CONTROL_FLOW

#: Modules whose calls JAX stages out under a trace (and whose results are then tracers).
_JAX_MODULES = ("jax.numpy.", "jax.lax.", "jax.random.", "jax.nn.", "jax.scipy.", "jax.ops.")
#: Sinks a static bound or a structured primitive can replace: how each reads in the options.
_CONTROL = ("a Python `if`", "a Python `assert`", "a Python boolean operator")


class TracedValues304:
    """One module's JAX304 findings."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx
        self.follower = Follower(
            self.ctx,
            through_indexing=True,
            reverse_mode=analysis.traces.reverse_mode_root,
            staged=lambda fn: fn is not None and bool(runs_staged(analysis, fn)),
        )
        self.ints = IntStatic(analysis)
        #: `_run_eagerly`'s answer per method.
        self._eager: dict[cst.FunctionDef, bool] = {}

    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        seen_sinks: set[int] = set()
        conditions: list[tuple[cst.Call, FunctionNode, Flow, Sink]] = []
        for call in self.ctx.calls:
            if not self._jax_value(call):
                continue
            fn = self.ctx.enclosing_function(call)
            if fn is None or not self._traced_here(fn, call):
                continue
            flow = self.follower.follow(call)
            sink = next(iter(flow.sinks), None)
            if sink is None or id(sink.node) in seen_sinks or self._jax402s(call, sink):
                continue
            if self._numpy_reads(sink) and self._data(call) is not None:
                continue  # NumPy handed data: JAX310's (its jax.numpy twin takes the tracer)
            if sink.returned and isinstance(sink.node, (cst.If, cst.While)):
                conditions.append((call, fn, flow, sink))  # `if helper(x):` is `traced_conditions`' first
                continue
            seen_sinks.add(id(sink.node))  # one finding per place that needs the value
            out.append(self._finding(call, fn, flow, sink))
            out.extend(self._further_floats(call, fn, flow, seen_sinks))
        out.extend(self._control_flow_parameters(seen_sinks))
        out.extend(self._value_shaped_parameters(seen_sinks))
        out.extend(self._computed_from_mapped_data(seen_sinks))
        out.extend(self._value_shaped_function_mapped(seen_sinks))
        out.extend(self._floats_under_differentiation(seen_sinks))
        out.extend(eager_block_tests(self.analysis, seen_sinks))
        out.extend(traced_conditions(self.analysis, seen_sinks))
        for call, fn, flow, sink in conditions:
            if id(sink.node) not in seen_sinks:
                seen_sinks.add(id(sink.node))
                out.append(self._finding(call, fn, flow, sink))
        out.extend(traced_conversions(self.analysis, seen_sinks))
        out.extend(traced_minmax(self.analysis, seen_sinks))
        out.extend(eager_constant_reads(self.analysis, self.follower, self.ints, seen_sinks))
        out.extend(staged_constant_reads(self.analysis, self.follower, seen_sinks))
        return out

    def _further_floats(self, call: cst.Call, fn: FunctionNode, flow: Flow, seen_sinks: set[int]) -> list[Finding]:
        """Each further ``float()`` the value reaches that nothing needs goes too: another sink of
        the flow, or one the tracer reaches once a dropped conversion lets it through
        (gwpopulation's ``total_variance = float(sum(variances))`` then ``float(total_variance)``)."""
        out: list[Finding] = []
        todo = list(flow.sinks)
        while todo:
            sink = todo.pop(0)
            if drop_float(self.analysis, sink.node) is None:
                continue
            if id(sink.node) not in seen_sinks:
                seen_sinks.add(id(sink.node))
                out.append(self._finding(call, fn, flow, sink))
            todo.extend(s for s in self.follower.follow(sink.node).sinks if id(s.node) not in seen_sinks)  # type: ignore[arg-type]
        return out

    def _value_shaped_function_mapped(self, seen_sinks: set[int]) -> list[Finding]:
        """``jnp.apply_along_axis(jnp.where, 1, adj)`` (jax#7542), ``jax.vmap(jnp.unique)(x)``: a
        function whose result's shape depends on its values, given no ``size=``, mapped over the
        rows. vmap traces each row, eagerly too, so it fails wherever it runs. Reported: the bound
        (``size=`` through apply_along_axis's keywords, or a ``partial``) only the data can tell."""
        ctx = self.ctx
        out: list[Finding] = []
        for call in ctx.calls:
            mapper = ctx.names.qualified_name(call.func) or ""
            if mapper not in _FUNCTION_MAPPERS or id(call) in seen_sinks or not call.args or call.args[0].keyword:
                continue
            function = call.args[0].value
            if (ctx.names.qualified_name(function) or "") not in VALUE_SHAPED:
                continue
            if mapper != "jax.vmap" and any(a.keyword is not None and a.keyword.value == "size" for a in call.args):
                continue
            seen_sinks.add(id(call))
            name = ctx.code(function)
            where = f"`{mapper.replace('jax.numpy.', 'jnp.')}` maps `{name}` over the rows (a vmap, eagerly too)"
            out.append(ctx.finding(
                "JAX304",
                function,
                f"{where}, but the shape of `{name}`'s result depends on the values it is given (or a static "
                "`size=`), which a mapped row has not got; not rewritten: only the data can tell the bound",
                notes=(
                    "option: a static bound, `size=N` (with `fill_value=`), passed through "
                    f"{'the call' if mapper != 'jax.vmap' else '`functools.partial`'}: every row's result then has N "
                    "entries, padded; a row with more than N is silently cut off: check it",
                    "option: compute it row by row where the data is concrete, with NumPy",
                ),
            ))
        return out

    def _computed_from_mapped_data(self, seen_sinks: set[int]) -> list[Finding]:
        """A value JAX computes from data a vmap or pmap maps, in a function no jit stages (those are
        the first pass's): ``int(onp.max(counts) * 1.25)`` in a helper of a vmapped neighbor-list
        builder (jax-md#101). A batch tracer has no value either. A Python condition on it is
        JAX305's; NumPy handed it JAX310's."""
        ctx = self.ctx
        out: list[Finding] = []
        for call in ctx.calls:
            if not self._jax_value(call):
                continue
            fn = ctx.enclosing_function(call)
            if fn is None or in_eager_block(ctx, call) or self._traced_here(fn, call):
                continue
            source = self.analysis.traced.source(call)
            if source is None and delegates(ctx.names.qualified_name(call.func) or ""):
                source = self.analysis.traced.source(call.args[0].value)  # `onp.max(t)` is `t.max()`
            entry = source.entry if source is not None else None
            if source is None or source.taint is not Taint.TRACED or source.keeps_value or source.concretized is not None:
                continue
            if entry is None or entry.via is None or entry.via.name not in _MAPS:
                continue
            flow = self.follower.follow(call)
            sink = next(iter(flow.sinks), None)
            if sink is None or id(sink.node) in seen_sinks or self._jax402s(call, sink) or self._numpy_reads(sink):
                continue
            if any(sink.reason.startswith(c) for c in _CONTROL) or sink.axis:
                continue
            seen_sinks.add(id(sink.node))
            out.append(self._finding(call, fn, flow, sink))
        return out

    def _floats_under_differentiation(self, seen_sinks: set[int]) -> list[Finding]:
        """``float(x)`` of a value only differentiation traces: it refuses even that concrete tracer
        (docs/differentiation-behaviour.md), while a comparison in a Python condition reads its
        value (jax#2783: ``x if float(x) >= 0. else -x`` under grad). Where the float only goes
        into such a comparison, the conversion goes (`float_conversion.compared_in_condition`)."""
        ctx = self.ctx
        out: list[Finding] = []
        for call in ctx.calls:
            if id(call) in seen_sinks or ctx.names.qualified_name(call.func) != "builtins.float":
                continue
            if len(call.args) != 1 or call.args[0].star or call.args[0].keyword is not None:
                continue
            operand = call.args[0].value
            source = self.analysis.traced.tracer_source(operand)
            if source is None or not source.keeps_value or self.analysis.traced.source(operand) is not None:
                continue
            head = (
                f"`{shorten(ctx.code(call))}`: `float()` refuses `{shorten(ctx.code(operand))}`, a tracer "
                f"({source.reason}), even though differentiation keeps its value"
            )
            seen_sinks.add(id(call))
            edit = compared_in_condition(self.analysis, call)
            if edit is not None:
                out.append(
                    ctx.finding(
                        "JAX304",
                        call,
                        f"{head}; the comparison it goes to reads that value as it is, so the conversion goes",
                        (edit,),
                        description=f"drop `float()`: `{shorten(edit.content)}`",
                    )
                )
                continue
            dropped = drop_float(self.analysis, call)
            if dropped is not None:
                out.append(dropped_float_finding(ctx, call, head, "the float", *dropped))
                continue
            out.append(ctx.finding("JAX304", call, f"{head}: a Python float carries no derivative", notes=_DIFFERENTIATED_FLOAT))
        return out

    def _value_shaped_parameters(self, seen_sinks: set[int]) -> list[Finding]:
        """A traced parameter (of a jit, or a function a traced call hands it) given to a function
        whose result's shape depends on its values (``jnp.unique``, ``nonzero``, one-argument
        ``where``) without ``size=``. No static argument helps an array; the options are a bound
        or computing it where the data is concrete."""
        ctx = self.ctx
        out: list[Finding] = []
        for fn in ctx.nodes_of(cst.FunctionDef):
            for param in function_info(ctx, fn).signature.params:
                source = self.analysis.traced.param_source(fn, param.name)
                if source is None or source.taint is not Taint.TRACED or source.keeps_value:
                    continue
                for read in parameter_reads(ctx, fn, param.name):
                    sink = next(iter(self.follower.follow(read).sinks), None)
                    if sink is None or id(sink.node) in seen_sinks or not value_shaped_call(ctx, sink.node):
                        continue
                    out.append(self._value_shaped_finding(read, source, sink, seen_sinks))  # type: ignore[arg-type]
        out.extend(self._value_shaped_calls(seen_sinks))
        return out

    def _value_shaped_finding(self, value: cst.BaseExpression, source, sink, seen_sinks: set[int]) -> Finding:
        """The finding at `value`, a tracer given to the value-shaped call `sink` names."""
        seen_sinks.add(id(sink.node))
        line = self.ctx.span(sink.node).start.line
        message = f"`{self.ctx.code(value)}` is a tracer ({source.reason}), but {sink.reason} (line {line})"
        fn = self.ctx.enclosing_function(sink.node)
        if source.jit is not None and source.via is None and source.root is None and isinstance(fn, cst.FunctionDef):
            hoisted = hoist_to_callers(self.analysis, fn, sink.node)
            if not isinstance(hoisted, str):
                return self.ctx.finding(
                    "JAX304",
                    value,
                    f"{message}; but every call of `{fn.name.value}` passes concrete values, so the size is computed "
                    f"there and passed in as the static `{hoisted.name}` (`{shorten(hoisted.passed, 60)}`)",
                    hoisted.edits,
                    description=f"compute `{hoisted.name}` at the calls, static on the jit",
                    notes=("each distinct size compiles once, as a static argument does",),
                )
        flagged = self._size_flag(value, message, sink)
        if flagged is not None:
            return flagged
        keyword = size_keyword(self.ctx.names.qualified_name(sink.node.func) or "") if isinstance(sink.node, cst.Call) else "size"
        return self.ctx.finding("JAX304", value, message, notes=_value_shaped_notes(keyword))

    def _dynamic_slice(self, at: cst.CSTNode, head: str, flow: Flow) -> Finding | None:
        """Every slice `flow` reaches made a dynamic slice of its Python int length
        (`repairs.dynamic_slice`), unsafe; `head` leads the message. None where one is not."""
        sliced = slices_as_dynamic(self.analysis, flow, self._python_int)
        if isinstance(sliced, str):
            return None
        edits, text = sliced
        return self.ctx.finding(
            "JAX304",
            at,
            f"{head}each slice it starts has a Python int length, so it becomes a dynamic slice: `{shorten(text, 90)}`",
            edits,
            Applicability.UNSAFE,
            description="slice with `jax.lax.dynamic_slice_in_dim`",
            notes=(_WINDOW_CLAMPED,),
        )

    def _size_flag(self, at: cst.CSTNode, message: str, sink: Sink) -> Finding | None:
        """A value-shaped call whose flag keeps every entry (``jnp.roots(p, strip_zeros=False)``,
        `sinks.SIZE_FLAGS`): the flag, unsafe (a leading zero gives a NaN root, not none)."""
        call = sink.node
        qualified = self.ctx.names.qualified_name(call.func) if isinstance(call, cst.Call) else None
        if qualified not in SIZE_FLAGS or not call.args or any(a.star for a in call.args):  # type: ignore[union-attr]
            return None
        keyword, flag = SIZE_FLAGS[qualified]
        last = call.args[-1]  # type: ignore[union-attr]
        return self.ctx.finding(
            "JAX304",
            at,
            f"{message}; `{keyword}={flag}` keeps every entry, so the result's size is the input's",
            (Edit(self.ctx.end(last), self.ctx.end(last), f", {keyword}={flag}"),),
            Applicability.UNSAFE,
            description=f"pass `{keyword}={flag}`",
            notes=(
                "unsafe: a leading zero coefficient then gives a NaN root where the default drops it: check the "
                "leading coefficient is never zero",
            ),
        )

    def _value_shaped_calls(self, seen_sinks: set[int]) -> list[Finding]:
        """The same, for a tracer that is no parameter read where it is given: a local bound to
        a traced value (``x, = input_args`` of a ``def op(*input_args)`` a jitted function calls)."""
        ctx = self.ctx
        out: list[Finding] = []
        for call in ctx.calls:
            if id(call) in seen_sinks or not value_shaped_call(ctx, call):
                continue
            given = sized_values(ctx, call)
            source = self.analysis.traced.source(given) if given is not None else None
            if source is None or source.taint is not Taint.TRACED or source.keeps_value:
                continue
            sink = next(iter(self.follower.follow(given).sinks), None)  # type: ignore[arg-type]
            if sink is None or sink.node is not call:
                continue
            out.append(self._value_shaped_finding(given, source, sink, seen_sinks))  # type: ignore[arg-type]
        return out

    def _control_flow_parameters(self, seen_sinks: set[int]) -> list[Finding]:
        """A parameter a lax primitive hands its callable as a tracer (the loop index of
        ``fori_loop``, the slice ``scan`` gives a step), or one vmap maps, reaching a size, a shape,
        a slice bound, a Python list's index or ``int()``. A loop count (``range``, a scan length,
        an ``arange`` size) is JAX301's, which may rewrite the loop; a Python value vmap traces is
        JAX405's, and a Python ``if`` on a mapped value JAX305's."""
        ctx = self.ctx
        out: list[Finding] = []
        for fn in [*ctx.nodes_of(cst.FunctionDef), *ctx.nodes_of(cst.Lambda)]:
            for param in function_info(ctx, fn).signature.params:
                source = self.analysis.traced.param_source(fn, param.name)
                helper = source is not None and source.via is None and source.entry.via is not None
                if helper:
                    # a helper the body calls with the index (scenic's `get_microbatch(batch, loop_cnt)`)
                    source = replace(source, via=source.entry.via)  # type: ignore[arg-type]
                if source is None or source.via is None or source.via.name not in (*_LOOPS, *_MAPS):
                    continue  # a cond or switch operand a branch needs concrete is JAX103's
                if source.taint is not Taint.TRACED:
                    continue  # static on a jit, fed a tracer: JAX101's, JAX301's or JAX404's
                mapped = source.via.name in _MAPS
                if mapped and python_value_at_every_call(self.analysis, fn, param.name, source.via):
                    continue  # a Python value vmap traces: JAX405 fixes the call
                for read in parameter_reads(ctx, fn, param.name):
                    sink = next(iter(self.follower.follow(read).sinks), None)
                    if sink is None and not mapped:  # `args[0][i]` of a list the loop carries (jax#2962)
                        sink = carried_list_index(self.analysis, read, fn, source.via)
                    if sink is None or id(sink.node) in seen_sinks or feeds_loop_count(ctx, sink.node):
                        continue
                    if mapped and any(sink.reason.startswith(c) for c in _CONTROL):
                        continue  # a Python `if` on a mapped value: JAX305's
                    if mapped and sink.axis:
                        continue  # a mapped value as an axis: JAX405's (jax#10493)
                    if isinstance(sink.node, cst.Call) and jitted_call(ctx, sink.node) is not None:
                        continue  # a static parameter of a jitted call: JAX404's
                    if self._container_element(read, source, fn, param.name, sink):
                        continue  # `not carry_deque` of a carry element the loop starts as a deque
                    seen_sinks.add(id(sink.node))
                    out.append(self._parameter_finding(read, source, sink, helper))
        return out

    def _container_element(self, read: cst.CSTNode, source, fn: FunctionNode, param: str, sink: Sink) -> bool:
        """The parameter is unpacked (``a, deque = carry``) and the sink is reached only through
        elements the primitive starts as containers (a tuple, list or dict display, ``None``, an
        instance of a class: ``PytreeDeque()``): a pytree of tracers, whose truth or ``==`` with a
        tuple Python decides (flax's nnx scan). An element that may be an array keeps the sink."""
        ctx = self.ctx
        statement = ctx.parent(read)
        if not (isinstance(statement, cst.Assign) and statement.value is read and len(statement.targets) == 1):
            return False
        target = statement.targets[0].target
        if not isinstance(target, (cst.Tuple, cst.List)) or any(isinstance(e, cst.StarredElement) for e in target.elements):
            return False
        route = next((r for r in self.analysis.traces.routes(fn) or () if any(w is source.via for w in r.wraps)), None)
        initial = carry_init(ctx, route, function_info(ctx, fn).signature, param, slices=True) if route is not None else None
        elements = tuple_elements(ctx, initial) if initial is not None else None
        if elements is None or len(elements) != len(target.elements):
            return False
        reaching = [
            (element.value, value) for element, value in zip(target.elements, elements)
            if isinstance(element.value, cst.Name)
            and any(sink.node in {s.node for s in self.follower.follow(r).sinks} for r in reads(ctx, element.value))
        ]
        return bool(reaching) and all(_container_value(ctx, value) for _, value in reaching)

    def _parameter_finding(self, read: cst.CSTNode, source, sink: Sink, helper: bool = False) -> Finding:
        """`helper`: `read` is in a function the primitive's callable calls, not in the callable itself."""
        ctx = self.ctx
        line = ctx.span(sink.node).start.line
        primitive = source.via.name.rsplit(".", 1)[-1]
        message = (
            f"`{ctx.code(read)}` is a tracer ({source.reason}), but {sink.reason} (line {line}); "
            f"`{primitive}` traces every value it hands its function, so no static argument can help"
        )
        dropped = dropped_assert(ctx, sink.node)
        if dropped is not None:
            return ctx.finding(
                "JAX304",
                read,
                f"{message}; the `assert` is a check Python cannot make on a tracer, so with --unsafe-fixes it goes",
                (dropped,),
                Applicability.UNSAFE,
                description="drop the assert on a traced value",
                notes=(
                    "unsafe: the check no longer runs; `jax.experimental.checkify.check` keeps it inside traced code, "
                    "or check the value where it is concrete",
                ),
            )
        if helper:
            return ctx.finding("JAX304", read, message, notes=_loop_notes(primitive) if source.via.name in _LOOPS else ())
        carried = self._constant_carry(read, source, sink)
        if carried is not None:
            return ctx.finding(
                "JAX304",
                read,
                f"{message}; but `{carried.name}` goes through the carry unchanged (the body hands it back as it "
                f"gets it), so it leaves the carry and the body reads the Python value it starts from",
                carried.edits,
                description=f"keep `{carried.name}` out of the loop's carry",
                notes=(f"each step saw the value the loop started with; {carried.given}",),
            )
        looped = python_loop(self.analysis, source.via.node) if source.via.name == FORI_LOOP else None
        indexed = isinstance(sink.node, cst.Subscript) and sink.node.slice[0].slice.value is read  # type: ignore[union-attr]
        # A Python loop keeps the list's own indexing (safe): the switch only where it cannot be one.
        switched = switch_call(self.analysis, sink.node) if indexed and (looped is None or isinstance(looped, str)) else None  # type: ignore[arg-type]
        if switched is not None and not isinstance(switched, str):
            edits, text = switched
            table = sink.node.value  # type: ignore[union-attr]
            in_range = source.via.name == FORI_LOOP and index_in_range(self.analysis, source.via.node, table)  # type: ignore[arg-type]
            notes = (
                "unsafe: `lax.switch` traces every function of the table, and they must return the same shapes and dtypes",
            ) + (() if in_range else (
                "and it clamps an index outside the table where the list raises (a negative one it takes as 0, "
                "where the list counts from the end): check the index stays in range",
            ))
            return ctx.finding(
                "JAX304",
                read,
                f"{message}; the table holds functions, and `lax.switch` calls the one a traced index picks: `{shorten(text, 80)}`",
                edits,
                Applicability.UNSAFE,
                description="pick the function with `lax.switch`",
                notes=notes,
            )
        if source.via.name in _MAPS and sink.argnums:
            return ctx.finding("JAX304", read, message, notes=_ARGNUMS_OPTIONS)
        if source.via.name in _MAPS:
            notes: tuple[str, ...] = (
                "option: each example may need its own size, which no traced program has: pad every example "
                "to a static bound and mask what is beyond its own (`jnp.where(jnp.arange(MAX) < n, ...)`)",
                "option: a table indexed by the value can be an array (`jnp.asarray(table)[i]`), which a traced "
                "index gathers from",
                f"option: if every example has the same value, pass it as a Python value outside the `{primitive}` "
                "(`in_axes=None`, or close over it)",
            )
            return ctx.finding("JAX304", read, message, notes=notes)
        if looped is not None and not isinstance(looped, str):
            edits, first = looped
            return ctx.finding(
                "JAX304",
                read,
                f"{message}; it runs eagerly with Python int bounds, so it becomes a Python loop that hands "
                f"the body its index as a Python int: `{first}`",
                edits,
                description="run the `fori_loop` as a Python loop",
                notes=("the body runs once per step, eagerly, instead of once compiled",),
            )
        selected = self._selected(sink)
        if selected is not None:
            edits, text = selected
            return ctx.finding(
                "JAX304",
                read,
                f"{message}; but the `if` only chooses a value, so it becomes `{shorten(text, 80)}`",
                edits,
                description=f"select with `{shorten(text, 80)}`",
                notes=("both arms are evaluated; the value of the one not selected is discarded",),
            )
        if isinstance(sink.node, cst.Slice):
            sliced = self._dynamic_slice(read, f"{message}; but ", self.follower.follow(read))
            if sliced is not None:
                return sliced
        table = sink.node.value if indexed else None  # type: ignore[union-attr]
        if table is not None and python_sequence(ctx, table) is None and python_mapping(ctx, table) is None:
            return ctx.finding("JAX304", read, message, notes=CARRIED_LIST_OPTIONS)  # a list the loop carries
        return ctx.finding("JAX304", read, message, notes=_loop_notes(primitive))

    def _selected(self, sink: Sink) -> tuple[tuple[Edit, ...], str] | None:
        """A Python ``if`` (statement or expression) a loop body takes on a tracer, selected with
        ``jnp.where`` where that is exact (`repairs.select_with_where`)."""
        if not isinstance(sink.node, (cst.If, cst.IfExp)):
            return None
        result = select_where_written(self.analysis, sink.node)
        return None if isinstance(result, str) else result

    def _constant_carry(self, read: cst.CSTNode, source, sink: Sink) -> DroppedCarry | None:
        """A ``fori_loop`` or ``scan`` carry element that reaches `sink` and goes round unchanged
        (`repairs.constant_carry`): the edits taking it out of the carry, and its name."""
        ctx = self.ctx
        body = ctx.enclosing_function(read)
        if source.via.name not in CARRY_LOOPS or not isinstance(body, cst.FunctionDef) or not isinstance(source.via.node, cst.Call):
            return None
        unpacking = carried_name(self.analysis, read, body, source.via.name)
        if unpacking is None:
            return None
        for index, element in enumerate(unpacking.elements):
            uses = reads(ctx, element.value)  # type: ignore[arg-type]
            if any(s.node is sink.node for use in uses for s in self.follower.follow(use).sinks):
                dropped = drop_constant_carry(self.analysis, source.via.node, body, unpacking, index)
                return None if isinstance(dropped, str) else dropped
        return None

    def _numpy_reads(self, sink: Sink) -> bool:
        return isinstance(sink.node, cst.Call) and numpy_function(self.ctx.names.qualified_name(sink.node.func))

    def _jax_value(self, call: cst.Call) -> bool:
        """A call whose result is an array JAX computes: a jax.numpy/lax/random call (not the metadata
        ones), or an array method of a value certainly an array (``draws.sum()``)."""
        ctx = self.ctx
        qualified = ctx.names.qualified_name(call.func) or ""
        if qualified == PSUM and call.args and not call.args[0].keyword and not call.args[0].star:
            if self.ints.kind(call.args[0].value).kind is not IntKind.UNKNOWN:
                return False  # the axis size times a Python constant, computed in Python (docs/jax4xx-behaviour.md, F)
        if qualified.startswith(_JAX_MODULES):
            return _jax_computes(qualified)
        if delegates(qualified) and call.args and not call.args[0].star and call.args[0].keyword is None:
            # `onp.max(counts)` calls `counts.max()`: of a tracer, a tracer (jax-md#101)
            source = self.analysis.traced.source(call.args[0].value)
            return source is not None and not source.keeps_value and source.concretized is None
        if _jitted_helper(ctx, call):
            return True  # a jitted function returns arrays: tracers, under the outer trace
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in ARRAY_METHODS and func.attr.value not in ("item", "tolist"):
            return array_origin(self.analysis, func.value) is not None and self._jax_array(func.value)
        updated = indexed_update(func)
        if updated is not None and func.attr.value != "get":  # type: ignore[attr-defined]
            return array_origin(self.analysis, updated) is not None and self._jax_array(updated)  # `npad.at[i].set(n)`
        return False

    def _jax_array(self, expr: cst.BaseExpression) -> bool:
        """The receiver is a JAX array (a NumPy one stays concrete under a trace)."""
        origin = array_origin(self.analysis, expr) or ""
        return "NumPy" not in origin

    def _traced_here(self, fn: FunctionNode, call: cst.Call) -> bool:
        return runs_staged(self.analysis, fn) and not in_eager_block(self.ctx, call) and not self._run_eagerly(fn)

    def _python_int(self, expr: cst.BaseExpression) -> bool:
        return self.ints.kind(expr).kind is IntKind.INT

    def _run_eagerly(self, fn: FunctionNode) -> bool:
        """A method every use of which in traced code sits in ``with jax.ensure_compile_time_eval():``
        (the helper repair's result): its jnp calls run on concrete values."""
        if not isinstance(fn, cst.FunctionDef):
            return False
        if fn not in self._eager:  # asked for each jnp call of `fn`: its uses are looked up once
            uses = helper_uses(self.analysis, fn)
            self._eager[fn] = bool(uses) and all(
                in_eager_block(self.ctx, u) or not runs_staged(self.analysis, self.ctx.enclosing_function(u))  # type: ignore[union-attr]
                for u in uses  # type: ignore[union-attr]
            )
        return self._eager[fn]

    def _jax402s(self, expr: cst.BaseExpression, sink: Sink, depth: int = 0) -> bool:
        """jnp arithmetic on provably static operands, nested ones included
        (``jnp.maximum(jnp.abs(steps), 1)``): JAX402 rewrites it into Python's. A bare
        ``jnp.asarray(static)`` it leaves alone (an array may be wanted) unless an axis takes it."""
        op = read_op(self.ctx, expr) if isinstance(expr, cst.Call) and depth < 8 else None
        if op is None:
            return False
        if depth == 0 and op.kind == "wrap" and not op.astype and not (sink.axis or sink.shape):
            return False
        return all(self._static_operand(o, sink, depth) for o in op.operands)

    def _static_operand(self, operand: cst.BaseExpression, sink: Sink, depth: int) -> bool:
        """A Python number, a tuple or list written out of them (``jnp.array((1, 1, df))``, flax#1258),
        or jnp arithmetic on such operands."""
        if isinstance(operand, (cst.Tuple, cst.List)):
            return bool(operand.elements) and all(
                isinstance(e, cst.Element) and self._static_operand(e.value, sink, depth) for e in operand.elements
            )
        return self.ints.kind(operand).kind in (IntKind.INT, IntKind.STATIC, IntKind.FLOAT) or self._jax402s(operand, sink, depth + 1)

    def _data(self, expr: cst.BaseExpression, depth: int = 0) -> str | None:
        """Why the value depends on traced data: an input that is a tracer where it is written (a
        parameter a transform traces), a random draw, or a JAX computation on such inputs."""
        ctx = self.ctx
        if depth > 8:
            return None
        if isinstance(expr, cst.Call):
            qualified = ctx.names.qualified_name(expr.func) or ""
            if qualified.startswith("jax.random.") and made_array(qualified) is not None:
                return f"`{shorten(ctx.code(expr))}` is a random draw"
            if qualified in METADATA_CALLS:
                return None  # `jnp.shape(x)` of a traced `x`: jit keeps shapes static
            for node in _inputs(expr, lambda call: ctx.names.qualified_name(call.func) in METADATA_CALLS):
                found = self._data(node, depth + 1)
                if found is not None:
                    return found
            return None
        source = self.analysis.traced.source(expr)
        if source is not None:
            return source.reason
        if isinstance(expr, cst.Name):
            binding = single_binding(ctx, expr)
            value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
            return self._data(value, depth + 1) if value is not None else None
        if isinstance(expr, cst.Attribute) and expr.attr.value in METADATA_ATTRIBUTES:
            return None  # `x.shape` of a traced `x`: jit keeps shapes static
        if isinstance(expr, (cst.Subscript, cst.Attribute)):
            return self._data(expr.value, depth + 1)
        if isinstance(expr, (cst.Comparison, cst.BinaryOperation, cst.UnaryOperation, cst.BooleanOperation)):
            parts = [c for c in expr.children if isinstance(c, cst.BaseExpression)]
            parts += [t.comparator for t in expr.comparisons] if isinstance(expr, cst.Comparison) else []
            return next((found for part in parts if (found := self._data(part, depth + 1)) is not None), None)
        return None

    def _static_slot_traced(self, sink: Sink, traced: str) -> Finding | None:
        """The value reaches a static parameter of a jitted helper (numpyro#1212: tuples of a jitted
        helper's outputs in a namedtuple, inside a traced model): where nothing in the helper needs
        that parameter concrete, it becomes a traced argument of the helper
        (`repairs.traced_parameter.made_traced`, as JAX404 does for a traced parameter)."""
        ctx = self.ctx
        called = jitted_call(ctx, sink.node) if isinstance(sink.node, cst.Call) else None
        if called is None:
            return None
        slot = next((s for s in called.slots if s.static and s.param == sink.static_parameter), None)
        callee = called.target.function.node
        if slot is None or callee is None:
            return None
        planned = made_traced(self.analysis, callee, slot.param)
        if planned is None:
            return None
        edits, unsure = planned
        notes = ["a traced argument compiles once per structure, shape and dtype, not once per value"]
        if unsure:
            notes.insert(0, f"unsafe: {unsure[0]}")
        return ctx.finding(
            "JAX304",
            slot.expr,
            f"{traced}; nothing in `{called.callee_name}` needs `{slot.param}` concrete, so it becomes a regular "
            f"(traced) argument of `{called.callee_name}`",
            edits,
            Applicability.UNSAFE if unsure else Applicability.SAFE,
            description=f"make `{slot.param}` a traced argument of `{called.callee_name}`",
            notes=tuple(notes),
        )

    def _finding(self, call: cst.Call, fn: FunctionNode, flow: Flow, sink: Sink) -> Finding:
        """`flow`: where the value of `call` goes (`Follower.follow`), its first sink `sink`."""
        ctx = self.ctx
        name = fn.name.value if isinstance(fn, cst.FunctionDef) else "the lambda"
        value = shorten(ctx.code(call))
        line = ctx.span(sink.node).start.line
        control = any(sink.reason.startswith(c) for c in _CONTROL)
        traced = f"`{value}` is computed by JAX while `{name}` is traced, so it is a tracer, but {sink.reason} (line {line})"
        # `count == jnp.zeros([], jnp.int32)` (optax's MoMo): the call is made of static values, but
        # the place also takes `count`, which is data: that decides what can be done there
        data = self._data(call) or next(
            (found for needed in needed_values(ctx, sink) if (found := self._data(needed)) is not None), None
        )
        jitted = jitted_call(ctx, call)
        twin_text: str | None = None  # NumPy's twin, where only a use out of sight keeps it from serving
        unhashed = self._static_slot_traced(sink, traced)
        if unhashed is not None:
            return unhashed
        flagged = self._size_flag(call, traced, sink)
        if flagged is not None:
            return flagged
        tested = _tested_by(ctx, sink.node)
        if data is not None and tested is not None and (branch_fn := ctx.enclosing_function(tested)) is not None:
            selected = select(self.analysis, branch_fn, tested)
            if not isinstance(selected, str):
                edits, text = selected
                caveat = gradient_caveat(self.analysis, tested)
                return ctx.finding(
                    "JAX304",
                    call,
                    f"{traced}; it depends on the data ({data}), and the `if` only chooses a value (what to return, or what a name holds), "
                    f"so it becomes `{shorten(text, 80)}`",
                    edits,
                    Applicability.UNSAFE if caveat else Applicability.SAFE,
                    description=f"select with `{shorten(text, 80)}`",
                    notes=("both arms are evaluated; the value of the one not selected is discarded", *((caveat,) if caveat else ())),
                )
        if isinstance(sink.node, cst.Subscript) and python_sequence(ctx, sink.node.value) is not None:
            indexed = index_the_array(self.analysis, sink.node)
            if not isinstance(indexed, str):
                edit, text = indexed
                return ctx.finding(
                    "JAX304",
                    call,
                    f"{traced}; the list holds JAX arrays appended by one expression, and the statement already makes "
                    f"one array of it, so the item is read from that array: `{shorten(text, 80)}`",
                    (edit,),
                    description="index the array the list is converted to",
                )
        if data is not None and isinstance(sink.node, cst.Slice):
            sliced = self._dynamic_slice(call, f"{traced}; it depends on the data ({data}), but ", flow)
            if sliced is not None:
                return sliced
        unwrapped = static_shape_unwrapped(self.analysis, call, fn, flow) if data is not None else ""
        if not isinstance(unwrapped, str):
            edits, param, jit_text = unwrapped
            return ctx.finding(
                "JAX304",
                call,
                f"{traced}; it only wraps `{param}`, and every call passes `{param}` a Python int or a tuple of ints, "
                f"so `{param}` becomes static (`{jit_text}`) and the shape is `{param}` itself",
                edits,
                description=f"make `{param}` static and use it as the shape",
                notes=("each distinct value compiles once; every call must keep passing a hashable Python value",),
            )
        if data is not None and isinstance(sink.node, cst.While):
            rewritten = as_while_loop(self.analysis, sink.node)
            if not isinstance(rewritten, str):
                edits, loop_text = rewritten
                return ctx.finding(
                    "JAX304",
                    call,
                    f"{traced}; it depends on the data ({data}), so the loop's test becomes a function of its "
                    f"values, which `lax.while_loop` runs compiled: `{loop_text}`",
                    edits,
                    Applicability.UNSAFE,
                    description=WHILE_DESCRIPTION,
                    notes=(WHILE_NOTE,),
                )
        if data is not None:
            tail = f"no static argument can make it concrete, since it depends on the data ({data})"
            if isinstance(sink.node, cst.While):
                tail += f"; nor is the loop written as `lax.while_loop`: {rewritten}"
        elif jitted is not None:
            head = (
                f"{traced}; `{shorten(ctx.code(call.func))}` is jitted, and a jitted function returns arrays, "
                "never Python values"
            )
            plain = call_plain_function(self.analysis, call, jitted)
            if plain is not None:
                function = jitted.target.function.name
                return ctx.finding(
                    "JAX304",
                    call,
                    f"{head}; every input here is a Python value, and `{shorten(ctx.code(call.func))}` is the jit of "
                    f"`{function}`, which is defined here without one: inside the traced `{name}` the jit adds "
                    f"nothing, so this call runs `{function}` itself and gets what Python computes",
                    (plain,),
                    description=f"call `{function}` itself",
                )
            dropped = drop_helper_jit(self.analysis, call, jitted)
            if isinstance(dropped, Edit):
                return ctx.finding(
                    "JAX304",
                    call,
                    f"{head}; every input here is a Python value and every use of `{jitted.callee_name}` is a call "
                    "inside traced code, where its jit adds nothing, so the jit goes and the call returns what "
                    "Python computes",
                    (dropped,),
                    description=f"drop the jit of `{jitted.callee_name}`",
                )
            tail = (
                f"`{shorten(ctx.code(call.func))}` is jitted, and a jitted function returns arrays, never Python "
                f"values; if every input is a Python value, call the function itself (`{jitted.callee_name}`) "
                f"without its jit (not done here: {dropped})"
            )
        else:
            evaluated = evaluate_while_tracing(self.analysis, call, self.ints, needed_values(ctx, sink), sink.node)
            helper = (
                helper_at_trace_time(self.analysis, fn, self.ints)
                if isinstance(evaluated, str) and isinstance(fn, cst.FunctionDef)
                else ""
            )
            if not isinstance(helper, str):
                edits, opening, lines = helper
                where = ", ".join(f"line {n}" for n in lines)
                return ctx.finding(
                    "JAX304",
                    call,
                    f"{traced}; everything `{name}` computes comes from static values (its receiver and arguments are "
                    f"static where it is used, and it reads nothing else from outside), so each use in traced code "
                    f"runs it at trace time, with the same jnp code and dtypes: `{opening}` ({where})",
                    edits,
                    description=f"run `{name}` at trace time",
                    notes=("it computes what running it before the jit would, on concrete values",),
                )
            # Python ints both ways: NumPy's twin computes the same ints with no block around the code
            twin = computed_with_numpy(self.analysis, call, self.ints, flow, needed_values(ctx, sink))
            if not isinstance(twin, str):
                edits, text = twin
                return ctx.finding(
                    "JAX304",
                    call,
                    f"{traced}; it is made of Python ints only, and NumPy computes the same ints concretely: "
                    f"`{shorten(text, 80)}`",
                    edits,
                    description="compute it with NumPy",
                    notes=(f"the trace-time block does not serve here: {evaluated}",) if isinstance(evaluated, str) else (),
                )
            inexact = computed_with_numpy(
                self.analysis, call, self.ints, flow, needed_values(ctx, sink), exact=False
            )
            if isinstance(evaluated, str) and not isinstance(inexact, str):
                edits, text = inexact
                return ctx.finding(
                    "JAX304",
                    call,
                    f"{traced}; every place its value goes needs it concrete, and NumPy has a twin of each "
                    f"jax.numpy call in it, which computes it concretely: `{shorten(text, 80)}`",
                    edits,
                    Applicability.UNSAFE,
                    description="compute it with NumPy",
                    notes=(
                        "NumPy computes floats in float64 where jax.numpy computes float32: the values agree to float32's precision",
                        f"the trace-time block does not serve here: {evaluated}",
                    ),
                )
            if not isinstance(evaluated, str):
                edits, opening = evaluated
                return ctx.finding(
                    "JAX304",
                    call,
                    f"{traced}; every value it is made of is static, so it is computed while tracing, with "
                    f"the same jnp code and dtypes: `{opening}`",
                    edits,
                    description="compute it at trace time",
                    notes=("Python's own arithmetic would compute floats in float64 where jnp uses float32",),
                )
            tail = (
                "if every input is a Python value, compute it with Python instead of JAX (`min`, `max`, `//`, "
                "`int()`, a list instead of `jnp.array(...)`); if not, it depends on the data"
            )
            if flow.blocked is not None:  # made of Python ints, but some use of it is out of sight
                unblocked = computed_with_numpy(self.analysis, call, self.ints, Flow(flow.sinks), needed_values(ctx, sink))
                if not isinstance(unblocked, str):
                    twin_text = shorten(unblocked[1], 80)
                    tail = (
                        f"it is made of Python ints only, and NumPy's twin (`{twin_text}`) would compute "
                        f"it concretely, but not every use of it is shown to take a NumPy value: {flow.blocked}"
                    )
        floated = self._float_dropped(call, sink, traced)
        if floated is not None:
            return floated
        message = f"{traced}; {tail}"
        if control:
            options = (
                "option: choose values with `jnp.where` or branches with `lax.cond`, which take a traced condition",
                "option: a loop that stops early becomes `lax.while_loop` with the test in its condition (or runs a "
                "fixed number of steps and keeps the result with `jnp.where`)",
                "option: compute the condition outside the traced function and pass it as a static argument",
            )
        elif isinstance(sink.node, cst.Call) and ctx.names.qualified_name(sink.node.func) in _PYTHON_NUMBERS:
            options = CONVERSION_NOTES
        elif isinstance(sink.node, cst.Call) and ctx.names.qualified_name(sink.node.func) in COMPARING:
            options = (
                "option: `jnp.minimum`/`jnp.maximum` (or `jnp.sort`) take tracers and give an array",
                "option: compute it where every input is concrete: before the jit, or at trace time in "
                "`with jax.ensure_compile_time_eval():` when every input is static",
            )
        elif isinstance(sink.node, cst.Subscript) and python_mapping(ctx, sink.node.value) is not None:
            options = (
                "option: keep the table as an array indexed by position (built before the jit: a dense grid of the "
                "values, or sorted keys searched with `jnp.searchsorted`), which takes a traced index",
                "option: when the key has few values, `lax.switch` over them, or compute the key before the jit and "
                "pass it as a static argument",
            )
        elif isinstance(sink.node, cst.Subscript) and python_sequence(ctx, sink.node.value) is not None:
            options = (
                "option: index an array of the items (`jnp.asarray(items)[i]`, or `jnp.stack`), which takes a traced "
                "index when they share a shape; `lax.switch(i, branches)` when they are functions",
                f"option: compute the index before calling `{name}`, outside jit, and pass it as a static argument",
            )
        elif isinstance(sink.node, cst.Slice):
            options = (
                "option: `lax.dynamic_slice(x, starts, sizes)` (or `lax.dynamic_slice_in_dim`) takes traced starts "
                "when the sizes are static: a window of fixed size at a traced place (clip the start to keep it in bounds)",
                "option: a fixed-size array with `jnp.where` masking the elements outside the traced bounds",
            )
        elif sink.static_parameter is not None:
            options = (
                f"option: compute it before calling `{name}`, outside "
                f"{'the transform' if runs_staged(self.analysis, fn) is False else 'jit'}, as Python values, and pass "
                "them in as a static argument",
                f"option: make `{sink.static_parameter}` a traced parameter of the helper once nothing in it needs "
                "the value concrete",
            )
        elif twin_text is not None:
            options = (
                f"option: compute it with NumPy (`{twin_text}`) once every use of it takes a NumPy array, or read the "
                "Python ints themselves (`x.shape[i]`) where the value is needed",
                f"option: compute it before calling `{name}`, outside jit, and pass it as a static argument",
            )
        else:
            options = (
                "option: a static upper bound: a fixed size chosen by the author (`size=` where the function takes "
                "one, or a mask over a fixed-size array); a value above the bound is silently cut off: check it",
                f"option: compute it before calling `{name}`, outside {'the transform' if runs_staged(self.analysis, fn) is False else 'jit'}, "
                "and pass it as a static argument",
            )
        return ctx.finding("JAX304", call, message, notes=options)


    def _float_dropped(self, call: cst.Call, sink: Sink, traced: str) -> Finding | None:
        """``float(t)`` whose Python float nothing needs: the conversion goes (`float_conversion`)."""
        dropped = drop_float(self.analysis, sink.node)
        if dropped is None:
            return None
        edit, unsure = dropped
        the_float = f"the Python number `{shorten(self.ctx.code(sink.node))}`"
        return dropped_float_finding(self.ctx, call, traced, the_float, edit, unsure)


#: Conversions to a Python number or bool: the value goes on as data, where an array may serve.
_PYTHON_NUMBERS = frozenset({"builtins.float", "builtins.bool", "builtins.complex"})


#: The options for ``float()`` of a value differentiation traces, where the float is needed.
_DIFFERENTIATED_FLOAT = (
    "option: compute with the array itself (jax.numpy) where the Python float is not needed",
    "option: code that only takes Python numbers (another library) cannot be differentiated by JAX: rewrite it in "
    "jax.numpy, or wrap it in `jax.pure_callback` with a `jax.custom_jvp` that gives its derivative",
)
#: The options for a mapped value given to a differentiation as its ``argnums`` (jax#6134).
_ARGNUMS_OPTIONS = (
    "option: `argnums` picks the arguments to differentiate when the function is built: loop over the positions in "
    "Python (`jnp.stack([f(i) for i in range(n)])`), one differentiated function each",
    "option: differentiate with respect to every argument at once (`argnums=tuple(range(n))`, or `jax.jacfwd`/"
    "`jax.hessian` of an array argument) and index the result with the traced position",
)
#: Why a dynamic slice is unsafe.
_WINDOW_CLAMPED = (
    "unsafe: where a window would run past the end, `dynamic_slice_in_dim` moves its start back "
    "so that it keeps its length, where the slice would be shorter: check the starts stay in range"
)
#: The primitives that run a callable over steps, tracing what they hand it (cond and switch
#: operands are JAX103's; ``lax.map`` is a scan over its array's leading axis).
_LOOPS = (frozenset(CONTROL_FLOW) - {"jax.lax.cond", "jax.lax.switch"}) | {"jax.lax.map"}
#: The transforms that map a function over a batch: each example's value is a tracer.
_MAPS = frozenset({"jax.vmap", "jax.pmap"})


def _tested_by(ctx: ModuleContext, node: cst.CSTNode) -> cst.If | None:
    """The ``if`` `node` is, or whose test it is the whole of through ``and``/``or``/``not``
    (``if d1 > d or d2 > d:``, where the ``or`` takes the Python bool)."""
    if isinstance(node, cst.If):
        return node
    whole = outermost(ctx, node)  # type: ignore[arg-type]
    parent = ctx.parent(whole)
    return parent if isinstance(parent, cst.If) and parent.test is whole else None


def _loop_notes(primitive: str) -> tuple[str, ...]:
    """The options for a value a loop primitive traces that a size or a condition needs."""
    return (
        "option: a static upper bound: a fixed size chosen by the author, with the value masking what is "
        "beyond it (`jnp.where(jnp.arange(MAX) < n, ...)`); a value above the bound is silently cut off: check it",
        f"option: when the number of steps is a Python int, a Python loop in place of `{primitive}`, which "
        "runs the body with the index as a Python int (it unrolls: one trace per step)",
    )


def dropped_assert(ctx: ModuleContext, node: cst.CSTNode) -> Edit | None:
    """The edit deleting ``assert test`` written as a line of its own in a block that keeps another
    statement (scenic's ``assert microbatch_size * idx < batch_size`` on a loop index); None otherwise."""
    if not isinstance(node, cst.Assert):
        return None
    line = ctx.parent(node)
    block = ctx.parent(line)
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1 or not isinstance(block, cst.IndentedBlock):
        return None
    if len(block.body) < 2:
        return None  # the block would be empty
    return Edit(ctx.lines.line_start(ctx.span(line).start.line), ctx.lines.line_start(ctx.span(line).end.line + 1), "")


def _inputs(call: cst.Call, metadata: Callable[[cst.Call], bool]):
    """The names, attributes and calls the call's arguments are made of (and a method's receiver);
    not the arguments of a `metadata` call (``jnp.shape(x)``), whose result jit keeps static."""
    stack: list[cst.CSTNode] = [a.value for a in call.args]
    if isinstance(call.func, cst.Attribute):
        stack.append(call.func.value)
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
            yield node
        if isinstance(node, cst.Call):
            if not metadata(node):
                stack.extend(a.value for a in node.args)
        elif isinstance(node, (cst.BinaryOperation, cst.Comparison, cst.UnaryOperation, cst.Tuple, cst.List)):
            stack.extend(c for c in node.children if isinstance(c, cst.BaseExpression))
            if isinstance(node, (cst.Tuple, cst.List)):
                stack.extend(e.value for e in node.elements)
            if isinstance(node, cst.Comparison):
                stack.extend(c.comparator for c in node.comparisons)


#: ``lax.psum`` of a value that is not a tracer returns it times the axis size, concrete.
PSUM = "jax.lax.psum"


def _jax_computes(qualified: str) -> bool:
    """A JAX function whose result is an array it computes (not metadata like ``jnp.shape``)."""
    return qualified.startswith(_JAX_MODULES) and metadata_call(qualified) is None and (
        made_array(qualified) is not None or qualified.startswith("jax.ops.")
    )


_WORDS = ("numpy", "lax", "random", "jnp", "jax")


def _jitted_helper(ctx, call: cst.Call) -> bool:
    """A call through a jit written at the call (``jax.jit(f)(3)``) or of a function jitted with
    static arguments: the jitted helpers the screen can see (`_static_jitted`, its twin)."""
    jitted = jitted_call(ctx, call)
    if jitted is None:
        return False
    if isinstance(call.func, cst.Call):
        return True
    spec = jitted.target.jit.spec  # type: ignore[union-attr]
    return bool(spec is not None and spec.declared_static(jitted.target.function.signature))


def _static_jitted(facts: Facts, func: ast.expr) -> bool:
    """A call of a function that may be jitted with static arguments, or through an inline jit."""
    if isinstance(func, ast.Call):
        return "jax.jit" in qualified_spellings(facts, func.func)
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return name is not None and name in facts.static_jitted_names


def _seeds(facts: Facts) -> list[ast.AST]:
    """JAX calls and array methods in functions, whose value may reach a place that needs it concrete."""
    out: list[ast.AST] = []
    for call in facts.calls:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in ARRAY_METHODS and func.attr not in ("item", "tolist"):
            pass
        elif not any(_jax_computes(q) or delegates(q) for q in qualified_spellings(facts, func)) and not _static_jitted(facts, func):
            continue  # a delegating NumPy reduction of a tracer is one (`_computed_from_mapped_data`)
        if reaches_sink(facts, call):
            out.append(call)
    bodies = [facts.tree.body, *(f.body for f in facts.nodes if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)))]
    for statement in (s for body in bodies for s in body):
        # `IDX = jnp.cumsum(...)` of the module or a function, read where jitted code needs it concrete (`eager_constant_reads`).
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            value, target = statement.value, statement.targets[0]
            if not (isinstance(value, ast.Call) and any(_jax_computes(q) for q in qualified_spellings(facts, value.func))):
                continue
            if isinstance(target, ast.Name):
                readers = constant_reaches_sink(facts, target.id)
            elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                readers = field_reaches_sink(facts, target.attr)  # `self.split_idxs = ...` in `__init__`
            else:
                continue
            if readers:
                out.append(value)
                out.extend(readers)
    out.extend(_nested_constant_seeds(facts, bodies))
    if facts.lines_of_words(("vmap", "pmap")):
        # A function vmap may map (handed to it under any name): one whose parameter may reach a size.
        out.extend(
            f for f in facts.nodes if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            and parameter_reaches_sink(facts, f)
        )
    for call in facts.calls:
        if any(q in VALUE_SHAPED for q in qualified_spellings(facts, call.func)):
            # A traced parameter given to `jnp.unique` and kin (`_value_shaped_parameters`).
            out.extend(d for d in _defs_around(facts, call.lineno) if parameter_reaches_sink(facts, d))
    for call in facts.calls:
        # `jnp.apply_along_axis(jnp.where, 1, adj)`: a value-shaped function mapped (`_value_shaped_function_mapped`)
        if call.args and any(q in _FUNCTION_MAPPERS for q in qualified_spellings(facts, call.func)):
            if any(q in VALUE_SHAPED for q in qualified_spellings(facts, call.args[0])):
                out.append(call)
    loops = [c for c in facts.control_flow_calls if facts.control_flow_name(c) not in ("cond", "switch")]
    loops += [c for c in facts.calls if "jax.lax.map" in qualified_spellings(facts, c.func)]
    for call in loops:  # an operand a cond or switch branch needs concrete is JAX103's (`_LOOPS`)
        # A callable a primitive traces, whose parameter may reach a size (`_control_flow_parameters`).
        for arg in (*call.args, *(k.value for k in call.keywords)):
            # `body`, `Model.body`, `partial(body, n)`: every def a name in it may stand for.
            names = {spelled_name(n) for n in ast.walk(arg) if isinstance(n, (ast.Name, ast.Attribute))}
            functions = [arg] if isinstance(arg, ast.Lambda) else [
                d for name in names if name for d in facts.defs_by_name.get(name, ())
            ]
            handed, callers = handed_defs(facts, arg)  # `scan_body_fn`, a helper's parameter
            functions += handed
            if any(parameter_reaches_sink(facts, f) for f in functions):
                out.append(call)
                out.extend(f for f in functions if not isinstance(f, ast.Lambda))
                out.extend(callers)
                break
    for node in facts.nodes:
        # A Python condition calling a def of the module, whose returns may be traced booleans
        # (`traced_conditions`: the forward search above stops at the helper's return).
        if isinstance(node, (ast.If, ast.While)) and any(
            isinstance(n, ast.Call) and spelled_name(n.func) in facts.defs_by_name
            for n in ast.walk(node.test)
        ):
            out.append(node)
    # `bool(v)`, `float(v)` in a function: v may be a tracer the forward search does not reach
    # (`traced_conditions.traced_conversions`).
    # `min(a, b)`, `max(a, b)`, `v.item()` in a function: a or v may be a tracer (`python_minmax`,
    # `traced_conversions`).
    out.extend(
        c for c in facts.calls
        if (
            (isinstance(c.func, ast.Name) and c.func.id in ("bool", "float", "min", "max"))
            or (isinstance(c.func, ast.Attribute) and c.func.attr == "item" and not c.args)
        )
        and _defs_around(facts, c.lineno)
    )
    if facts.lines_of_words(_DIFFERENTIATION_WORDS):
        # `float(x)` compared in a condition, in a module that differentiates something.
        out.extend(c for c in facts.calls if isinstance(c.func, ast.Name) and c.func.id == "float")
    return out


#: How a module spells the differentiation transforms (`_floats_under_differentiation`).
_DIFFERENTIATION_WORDS = ("grad", "jacfwd", "jacrev", "jacobian", "hessian", "jvp", "vjp")


def _nested_constant_seeds(facts: Facts, bodies: list[list[ast.stmt]]) -> list[ast.AST]:
    """A JAX call inside an eager statement's expression, handed through arithmetic only to a call of
    a def or a class of the module (`staged_constants._handed_to_the_module`: ``Wrapper(model,
    bins=128 * jnp.array(dims))``): seeded with the functions where a field an ``__init__`` sets, or
    a parameter of the def the call names, may reach a place that needs it concrete."""
    out: list[ast.AST] = []
    readers: list[ast.AST] | None = None
    for statement in (s for body in bodies for s in body):
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for call in (n for n in ast.walk(statement) if isinstance(n, ast.Call)):
            callee = call.func.id if isinstance(call.func, ast.Name) else None
            if callee is None or (callee not in facts.defs_by_name and callee not in facts.class_names):
                continue
            handed = [
                inner for value in (*call.args, *(k.value for k in call.keywords))
                for inner in _through_arithmetic(value)
                if isinstance(inner, ast.Call) and any(_jax_computes(q) for q in qualified_spellings(facts, inner.func))
            ]
            if not handed:
                continue
            if readers is None:
                fields = {
                    t.attr for f in facts.nodes if isinstance(f, ast.FunctionDef) and f.name == "__init__"
                    for n in ast.walk(f) if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Attribute)
                }
                readers = [r for field in sorted(fields) for r in field_reaches_sink(facts, field)]
            named = [d for d in facts.defs_by_name.get(callee, ()) if parameter_reaches_sink(facts, d)]
            if readers or named:
                out.extend(handed)
                out.extend(readers)
                out.extend(named)
    return out


def _through_arithmetic(expr: ast.expr) -> list[ast.expr]:
    """`expr` and, through binary and unary operators, each of its operands."""
    if isinstance(expr, ast.BinOp):
        return [expr, *_through_arithmetic(expr.left), *_through_arithmetic(expr.right)]
    if isinstance(expr, ast.UnaryOp):
        return [expr, *_through_arithmetic(expr.operand)]
    return [expr]


def _container_value(ctx: ModuleContext, value: cst.BaseExpression) -> bool:
    """A container, not an array: a display, ``None``, a class's instance (a capitalised callee that
    is no jax.numpy function), or a name some binding of which is one."""
    if isinstance(value, (cst.Tuple, cst.List, cst.Dict, cst.Set)):
        return True
    if isinstance(value, cst.Name):
        if value.value == "None":
            return True
        bindings = every_binding(ctx, value) or []
        return any(
            isinstance(b, cst.Name) and (bound := assigned_value(ctx, b)) is not None and not isinstance(bound, cst.Name)
            and _container_value(ctx, bound)
            for b in bindings
        )
    if isinstance(value, cst.Call):
        qualified = ctx.names.qualified_name(value.func) or ""
        name = value.func.attr.value if isinstance(value.func, cst.Attribute) else getattr(value.func, "value", "")
        return name[:1].isupper() and not qualified.startswith(("jax.", "numpy."))
    return False


#: Calls that map the function they are given over an array's rows (apply_along_axis's keywords reach it).
_FUNCTION_MAPPERS = frozenset({"jax.numpy.apply_along_axis", "jax.vmap"})
def _value_shaped_notes(keyword: str) -> tuple[str, ...]:
    """The ways out of a value-shaped call (``jnp.nonzero`` without ``size=``, ``segment_sum``
    without ``num_segments``) given a tracer."""
    if keyword == "size":
        bound = (
            "option: a static bound, `size=N` (with `fill_value=`): the result then always has N "
            "entries, padded; a value with more than N is silently cut off: check it"
        )
    else:
        bound = (
            f"option: a static `{keyword}=N`: the result then always has N entries; a value that would "
            "need more is silently dropped: check it"
        )
    return (
        bound,
        "option: compute it where the data is concrete, before the trace (NumPy, e.g. `np.unique`), "
        "and pass the result in as a static value or close over it",
    )


class TracedValueNeedsConcrete304(Rule):
    """A value JAX computes while tracing reaches a place that needs a concrete value.

    Under ``jit`` (and the other staging transforms, and the bodies of
    ``lax.cond``/``scan``/``fori_loop``/``while_loop``) a jnp, lax or random
    call is recorded, not run: its result is a tracer. Where Python needs the
    value itself, the program fails::

        sub = jax.random.randint(key, (jnp.sum(lengths), 3), 0, n)   # a shape from data
        TypeError: Shapes must be 1D sequences of concrete values of integer type

        if jnp.all(jnp.abs(new - old) < tol): break                    # Python control flow
        jax.errors.TracerBoolConversionError: Attempted boolean conversion of traced array

    Such a value depends on what the program computes, so no static argument
    can help, and every formulation that takes a traced value changes the
    program's structure: this rule reports, with the options (a static bound
    and a mask, ``jnp.where``/``lax.cond``/``lax.while_loop``, computing the
    value outside jit). jnp arithmetic on static Python ints is JAX402's, a
    traced parameter reaching such a place is JAX301's or JAX302's.

    A value a loop primitive hands its function is such a value too: the index
    ``fori_loop`` gives its body, the slice ``scan`` gives a step
    (``jnp.pad(x, 2 ** level)`` in a scan over levels). A loop count made of it
    is JAX301's; a cond or switch operand a branch needs is JAX103's.

    ``jnp.unique``, ``nonzero``, ``flatnonzero``, ``argwhere`` and a
    one-argument ``where`` give a result whose shape depends on their
    argument's values; without ``size=`` they need those values concrete.
    A traced parameter handed to one (a jit's, or one a traced call passes
    on, ``value_and_grad`` included) is reported too: no static argument
    helps an array, and the options are a static ``size=`` bound or computing
    it where the data is concrete.

    One such value is fixed: the result of a jitted helper called with Python
    values (``jnp.arange(add1(k))`` with ``k`` static, jax#35090). A jitted
    function returns arrays, so its result is a tracer; without its jit the
    helper returns what Python computes. The jit is dropped when every use of
    the helper is a call inside traced code, where its jit adds nothing, and
    every result flows where a Python value works as the array did
    (`unjitted_helper`).

    Two more are fixed where the Python value was never needed. ``float(t)``
    whose float only feeds arithmetic, jax.numpy or a jitted function's
    return loses the conversion (``return float(res)`` becomes ``return
    res``, OpenFermion#1396; `float_conversion`); and an ``if`` on such a
    value that only chooses which of two values to return, or what one name
    holds (``if c: x = a`` with or without ``else: x = b``, haliax#57), selects
    with ``jnp.where`` (`repairs.select_with_where`, as JAX305 does under vmap).
    A ``fori_loop`` run eagerly with Python int bounds, whose body needs its
    index concrete, becomes a Python loop that hands the body a Python int
    (jax#15509; `repairs.python_loop`). A jnp expression every value of which
    is static (``int(jnp.ceil(T / delta_t))`` with static floats, phentax#28)
    is computed while tracing: its statement goes into ``with
    jax.ensure_compile_time_eval():``, the same jnp code and dtypes on concrete
    values (`repairs.trace_time_eval`; Python's float64 arithmetic could round
    differently, so it is not rewritten into Python). So is a method or
    property whose whole computation comes from static values
    (``strategy.default_params`` of a static strategy, computing with jnp and
    then Python's ``min``, evosax#2), or a plain helper handed only static
    values (a validation ``if not jnp.all(jnp.diff(tsave) > 0): raise`` on a
    constant grid, dynamiqs#532): each use in traced code goes into that
    block, which gives what computing it before the jit gives. The places
    include a flax layer's size built in a traced ``setup`` (flax#1516:
    ``MLP(widths + (jnp.prod(...),))`` then ``nn.Dense(self.features[-1])``)
    and ``.tolist()`` of a staged ``jnp.asarray`` (dynamiqs#1015). A test
    on arrays such a block computed, written on the line after it (``if z >
    0:``, jax#9823), is traced again there: it is computed inside the block.
    A slice whose start depends on the data but whose length is a Python int
    (``data[i:i + BLOCK]`` for random starts, jax-llm#10) becomes
    ``jax.lax.dynamic_slice_in_dim(data, i, BLOCK)``; unsafe, because near the
    end it moves the window back where the slice would shorten it. A shape
    written ``jnp.array(shape, dtype=jnp.int32)`` of a traced parameter every
    call passes a tuple of ints (aesara#43) needs two edits, both made: the
    parameter becomes static and the shape is the tuple itself
    (`wrapped_shape`). A list of functions indexed by a tracer
    (``POTENTIALS[kind](r)`` under vmap, jax#5261) calls the one it picks with
    ``lax.switch(kind, POTENTIALS, r)`` (unsafe: switch clamps an index out of
    range, and traces every function; `repairs.table_switch`). A static value
    threaded unchanged through a ``fori_loop`` or ``scan`` carry (a batch
    size the body slices with, jax#1879) leaves the carry, and the body
    closes over it, or, defined elsewhere, gets it bound with
    ``functools.partial`` (`repairs.constant_carry`). ``x.item()`` whose number only travels where
    an array serves (packed in a NamedTuple a jitted function returns,
    jax#8962, or a tuple a caller unpacks, gymnax#74) becomes ``x.reshape(())``.
    Python's ``min``/``max`` of a tracer whose result only goes where an
    array serves becomes ``jnp.minimum``/``jnp.maximum`` (a schedule reached
    through a table of functions, scenic). A jax.numpy expression of Python
    ints whose value is a vector a jax.numpy function takes after the trace-time
    block (where the trace stages it again, docs/jax4xx-behaviour.md, G) is
    computed with NumPy instead (``np.cumsum(np.array([b.shape[0] for b in
    biases]))``, flax#648). An ``assert`` on a loop index the body (or a helper
    it calls) gets is dropped with --unsafe-fixes (scenic's micro-batch fetcher).
    Under ``grad`` alone a tracer keeps its value, yet ``float()`` refuses it:
    ``x if float(x) >= 0. else -x`` compares the value itself once the
    conversion goes (jax#2783).

    A value built from static ones over several statements (jax#3620's pad
    widths: ``npad = jnp.zeros(...)`` then ``npad = npad.at[axis, 1].set(pad_size)``)
    has those statements wrapped in one trace-time block; where the place would
    take a vector through JAX operations after it (``jnp.nonzero(a)`` of a
    constant, jax#5280), the place's statement goes in too. A statement written
    over several lines is wrapped whole (ott#114). NumPy's twin is preferred
    where both hold, and refused where the place is the data of a
    value-shaped function (docs/jax4xx-behaviour.md, H). A Python list the
    function fills with one ``append`` of a JAX array, indexed by a tracer in a
    statement that also converts it (``dist[jnp.argmin(jnp.asarray(dist))]``,
    jax#5839), reads the item from that array (`repairs.list_as_array`). A
    Python dict looked up with a traced key (or a ``tuple`` of one) is
    reported: a tracer does not hash.
    """

    code = "JAX304"
    name = "traced-value-needs-concrete"
    summary = "a value JAX computes while tracing is used where Python needs a concrete value"
    required = (
        ("jax",),
        ("jit", "cond", "scan", "fori_loop", "while_loop", "switch", "pmap", "checkpoint", "remat", "make_jaxpr",
         "eval_shape", "map", "param", *_DIFFERENTIATION_WORDS),
    )

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        return _seeds(facts)

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return TracedValues304(analysis).findings()
