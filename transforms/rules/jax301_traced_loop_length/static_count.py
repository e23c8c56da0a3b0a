"""Make a traced count static on its jit, when every call passes a Python int (JAX301, fix 1).

When the count is arithmetic on parameters of a jitted function
(``range(n)``, ``range(i_end - i_start)``, through locals bound once:
``steps = i_end - i_start``), every call the module makes passes each of them
a Python int (a literal, a constant, arithmetic on those), and nothing else
(vmap, grad, a stored reference) enters the function, the parameters can
simply be static: the loop keeps its shape, scan keeps its ys,
and reverse-mode grad keeps working (jax-behaviour.md 3c: one compile per
distinct count). The conversions then go, since a Python int has no
``.item()`` or ``.astype()``; so must every other use of the parameter that a
Python int would not support (``n.sum()``, ``n[0]``).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.repairs.static_parameter import item_at_call, only_needed_concrete, static_edit, through_one_jit
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.constants import assigned_value, single_binding
from jaxfix.transforms.semantics.importers import CallElsewhere, calls_elsewhere
from jaxfix.transforms.semantics.int_values import INT_ARITHMETIC, IntStatic, int_value
from jaxfix.transforms.semantics.int_values import Kind as IntKind
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.loop_counts import Count, conversion_edits
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, call_argument
from jaxfix.transforms.semantics.python_values import PythonValue, python_value
from jaxfix.transforms.semantics.reads import parameter, parameter_reads
from jaxfix.transforms.semantics.traced_values import conversion_operand, namedtuple_parameter
from jaxfix.transforms.semantics.tracing import Route


@dataclass(frozen=True)
class StaticCount:
    edits: tuple[Edit, ...]
    #: The jit as it reads after the edit.
    jit_text: str
    #: (call, the int it passes) for every call of the function.
    calls: tuple[tuple[cst.Call, int | str], ...]
    #: An import the edit adds, for the message.
    added: str | None = None
    #: Every parameter made static (the count's source first).
    params: tuple[str, ...] = ()
    #: One of them is a NamedTuple, made static whole.
    tuples: bool = False
    #: The calls that pass a concrete one-element integer array get `.item()` of it (`_item_of`).
    converted: bool = False


def plan_static_count(analysis: Analysis, fn: FunctionNode, param: str, counts: list[Count]) -> StaticCount | str:
    """Edits making `param`, and every other parameter the counts compute with, static on fn's
    jit and dropping the counts' conversions; else why not."""
    ctx = analysis.ctx
    params: list[str] = [param]
    locals_read: list[cst.Name] = []
    for count in counts:
        found = _arithmetic_params(analysis, fn, count.expr, locals_read, 0)
        if found is None:
            return f"the count `{ctx.code(count.expr)}` is more than arithmetic on `{param}`"
        params.extend(p for p in found if p not in params)
    order = [p.name for p in function_info(ctx, fn).signature.params]
    params.sort(key=lambda name: order.index(name) if name in order else len(order))
    lifted = _lift_to_caller(analysis, fn, params, locals_read)
    if isinstance(lifted, str):
        return lifted
    for helper, name in lifted.helpers:
        unsupported = _int_unsafe_use(analysis, helper, name, counts)
        if unsupported is not None:
            return unsupported
    if lifted.helpers and not lifted.params:
        return "the calls pass the count no parameter of a jitted function"
    if lifted.helpers:
        fn, params, param, counts_here = lifted.function, lifted.params, lifted.params[0], []
    else:
        counts_here = counts
    calls: list[tuple[cst.Call, int | str]] = []
    items: list[Edit] = []
    info = function_info(ctx, fn)

    def each_call(route: Route) -> str | None:
        values = [_passed_int(analysis, fn, route, name) for name in params]
        for index, name in enumerate(params):
            argument = call_argument(route.call, info.signature, name, bound=route.bound, consumed=route.consumed, ctx=ctx)  # type: ignore[arg-type]
            if (
                values[index] is None
                and (item := item_at_call(analysis, route.call, argument)) is not None  # type: ignore[arg-type]
                and only_needed_concrete(analysis, fn, name)
            ):
                items.append(item[0])
                values[index] = item[1]
        missing = next((name for name, value in zip(params, values) if value is None), None)
        if missing is not None:
            return f"the call on line {ctx.span(route.call).start.line} does not pass `{missing}` a Python int"
        calls.append((route.call, values[params.index(param)]))  # type: ignore[arg-type]
        return None

    entry = through_one_jit(analysis, fn, each_call, params=tuple(params))
    if isinstance(entry, str):
        return entry
    jit, elsewhere = entry
    for other in elsewhere:
        for name in params:
            if _passed_int_elsewhere(analysis, fn, other, name) is None:
                line = other.uses.line(other.call)
                return f"the call in `{other.uses.module.name}` (line {line}) does not pass `{name}` a Python int"
    for name in params:
        unsupported = _int_unsafe_use(analysis, fn, name, counts_here)
        if unsupported is not None:
            return unsupported
    unsupported = _int_unsafe_local(analysis, locals_read)
    if unsupported is not None:
        return unsupported
    edit = static_edit(analysis, fn, jit, tuple(params))
    if isinstance(edit, str):
        return edit
    edits, description, added = edit
    strips = [e for count in counts for e in conversion_edits(ctx, count, astype=False)]
    tuples = any(_tuple_parameter(analysis, fn, name) for name in params)
    return StaticCount((*edits, *strips, *items), description, tuple(calls), added, tuple(params), tuples, bool(items))


@dataclass(frozen=True)
class Lifted:
    """Where a helper's count parameters come from: the function whose parameters to make static."""

    function: FunctionNode
    params: list[str]
    #: The helpers' parameters on the way, each a Python int once `params` are static.
    helpers: tuple[tuple[FunctionNode, str], ...] = ()


def _lift_to_caller(
    analysis: Analysis, fn: FunctionNode, params: list[str], locals_read: list[cst.Name], depth: int = 0
) -> Lifted | str:
    """A plain helper (no jit, every use a direct call, all from one function, none from another
    module) whose count parameters every call fills with arithmetic on that caller's parameters:
    those are what a jit must make static (DESC's ``_odefun(y, src, bs_chunk_size)`` calling
    ``_compute_B``, whose ``range`` steps by it). Lifted through up to four helpers."""
    ctx = analysis.ctx
    routes = analysis.traces.routes(fn)
    if depth > 4 or not routes or not params or any(r.wraps or r.escapes or r.call is None or r.uncertain for r in routes):
        return Lifted(fn, params)
    callers = {ctx.enclosing_function(r.call) for r in routes}  # type: ignore[arg-type]
    caller = callers.pop() if len(callers) == 1 else None
    if caller is None or caller is fn or not isinstance(fn, cst.FunctionDef):
        return Lifted(fn, params)
    if calls_elsewhere(ctx, fn.name.value) != []:
        return Lifted(fn, params)
    signature = function_info(ctx, fn).signature
    found: list[str] = []
    for route in routes:
        line = ctx.span(route.call).start.line  # type: ignore[arg-type]
        for name in params:
            argument = call_argument(route.call, signature, name, bound=route.bound, consumed=route.consumed, ctx=ctx)  # type: ignore[arg-type]
            if argument is DEFAULT:
                declared = parameter(fn, name)
                if declared is None or declared.default is None or int_value(analysis, declared.default) is None:
                    return f"the call on line {line} leaves `{name}` to a default that is no Python int"
                continue
            if not isinstance(argument, cst.BaseExpression):
                return f"the call on line {line} passes `{name}` a value that cannot be read"
            more = _arithmetic_params(analysis, caller, argument, locals_read, 0)
            if more is None:
                return f"the call on line {line} passes `{name}` more than arithmetic on the parameters of its caller"
            found.extend(p for p in more if p not in found)
    outer = _lift_to_caller(analysis, caller, found, locals_read, depth + 1)
    if isinstance(outer, str):
        return outer
    return Lifted(outer.function, outer.params, ((fn, params[0]), *((fn, p) for p in params[1:]), *outer.helpers))


def _passed_int(analysis: Analysis, fn: FunctionNode, route: Route, param: str) -> int | str | None:
    """The Python int a call passes `param`; for a NamedTuple parameter, the hashable tuple (as
    written); None when neither is shown."""
    info = function_info(analysis.ctx, fn)
    argument = call_argument(route.call, info.signature, param, bound=route.bound, consumed=route.consumed, ctx=analysis.ctx)  # type: ignore[arg-type]
    if argument is DEFAULT:
        node = parameter(fn, param)
        return int_value(analysis, node.default) if node is not None and node.default is not None else None
    if not isinstance(argument, cst.BaseExpression):
        return None
    if _tuple_parameter(analysis, fn, param):
        value = python_value(analysis, argument)
        return f"`{analysis.ctx.code(argument)}`" if isinstance(value, PythonValue) else None
    known = int_value(analysis, argument)
    if known is None and IntStatic(analysis).kind(argument).kind is IntKind.INT:
        return f"`{analysis.ctx.code(argument)}`"  # a Python int, though which one is not known
    return known


def _tuple_parameter(analysis: Analysis, fn: FunctionNode, param: str) -> bool:
    node = parameter(fn, param)
    return node is not None and namedtuple_parameter(analysis.ctx, analysis.traces, node.name) is not None


def _passed_int_elsewhere(analysis: Analysis, fn: FunctionNode, other: CallElsewhere, param: str) -> int | None:
    """What a call in another module passes `param`, as an int (its constants, our default)."""
    info = function_info(analysis.ctx, fn)
    argument = call_argument(other.call, info.signature, param, bound=False)
    if argument is DEFAULT:
        node = parameter(fn, param)
        return int_value(analysis, node.default) if node is not None and node.default is not None else None
    if not isinstance(argument, cst.BaseExpression):
        return None
    return int_value(other.uses.analysis, argument)  # type: ignore[arg-type]


def _arithmetic_params(
    analysis: Analysis, fn: FunctionNode, expr: cst.BaseExpression, locals_read: list[cst.Name], depth: int
) -> list[str] | None:
    """The parameters of fn that `expr` combines with static values by arithmetic, under
    conversions and ``.astype``, through locals of fn bound once (collected in `locals_read`);
    None when it is anything more."""
    ctx = analysis.ctx
    if depth > 8:
        return None
    operand = conversion_operand(ctx, expr)
    if operand is not None:
        return _arithmetic_params(analysis, fn, operand, locals_read, depth + 1)
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "astype":
        return _arithmetic_params(analysis, fn, expr.func.value, locals_read, depth + 1)
    if isinstance(expr, cst.BinaryOperation) and type(expr.operator) in INT_ARITHMETIC:
        left = _arithmetic_params(analysis, fn, expr.left, locals_read, depth + 1)
        right = _arithmetic_params(analysis, fn, expr.right, locals_read, depth + 1)
        return None if left is None or right is None else [*left, *(p for p in right if p not in left)]
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        return _arithmetic_params(analysis, fn, expr.expression, locals_read, depth + 1)  # `range(-w, w + 1)`
    if _array_metadata(expr):
        return []  # `seq.shape[0]`: static even for a tracer
    position = _shape_position(expr)
    if position is not None:
        # `x.shape[axis]`: static once the position is (chromatix's `x.shape[axis]`, axis defaulted).
        return _arithmetic_params(analysis, fn, position, locals_read, depth + 1)
    if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name):
        # `config.max_length` of a NamedTuple parameter: the whole tuple becomes static.
        fields = namedtuple_parameter(ctx, analysis.traces, expr.value)
        binding = single_binding(ctx, expr.value)
        if fields is not None and expr.attr.value in fields and ctx.parent(ctx.parent(binding)) is fn:
            return [binding.name.value]  # type: ignore[union-attr]
        return None
    if isinstance(expr, cst.Name):
        binding = single_binding(ctx, expr)
        if isinstance(binding, cst.Param):
            return [binding.name.value] if ctx.parent(ctx.parent(binding)) is fn else None
        if isinstance(binding, cst.Name) and ctx.enclosing_function(binding) is fn:
            value = assigned_value(ctx, binding)
            if value is not None and isinstance(ctx.parent(binding), cst.AssignTarget):
                locals_read.append(binding)
                return _arithmetic_params(analysis, fn, value, locals_read, depth + 1)
    return [] if int_value(analysis, expr) is not None else None


def _array_metadata(expr: cst.BaseExpression) -> bool:
    """``x.shape[i]``, ``x.ndim``, ``x.size``: an int jit knows while tracing."""
    if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "shape":
        return len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index) and isinstance(expr.slice[0].slice.value, cst.Integer)
    return isinstance(expr, cst.Attribute) and expr.attr.value in ("ndim", "size") and isinstance(expr.value, cst.Name)


def _shape_position(expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """``x.shape[i]`` with `i` not a literal: the ``i``."""
    if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "shape":
        if len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index):
            return expr.slice[0].slice.value
    return None


def _int_unsafe_local(analysis: Analysis, locals_read: list[cst.Name]) -> str | None:
    """A read of a followed local that a Python int would not support (``steps.sum()``)."""
    ctx = analysis.ctx
    for target in locals_read:
        scope = ctx.scope(target)
        for assignment in scope[target.value] if scope is not None else ():
            for access in assignment.references:
                use = access.node
                parent = ctx.parent(use)
                if isinstance(parent, (cst.Attribute, cst.Subscript)) and parent.value is use:
                    line = ctx.span(use).start.line
                    return f"`{target.value}` is also used as `{ctx.code(parent)}` (line {line}), which a Python int does not support"
    return None


def _int_unsafe_use(analysis: Analysis, fn: FunctionNode, param: str, counts: list[Count]) -> str | None:
    """A use of `param` outside the counts that a Python int would not support, described. A
    NamedTuple made static reads its fields as before (its Python values)."""
    ctx = analysis.ctx
    if _tuple_parameter(analysis, fn, param):
        return None
    inside = [(ctx.start(c.expr), ctx.end(c.expr)) for c in counts]
    for use in parameter_reads(ctx, fn, param):
        if any(a <= ctx.start(use) < b for a, b in inside):
            continue
        parent = ctx.parent(use)
        if isinstance(parent, (cst.Attribute, cst.Subscript)) and parent.value is use:
            call = ctx.parent(parent)
            shown = call if isinstance(call, cst.Call) and call.func is parent else parent
            line = ctx.span(use).start.line
            return f"`{param}` is also used as `{ctx.code(shown)}` (line {line}), which a Python int does not support"
    return None
