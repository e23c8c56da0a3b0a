"""Which ``not``/``and``/``or`` the jax.numpy logical functions can stand in for.

Python's boolean operators take a Python bool of their operand (``not t``)
or of every operand but the last (``a and b``): a tracer refuses. Where the
whole operation is used as a value (not itself a Python condition), and every
operand is a boolean, ``jnp.logical_not``/``logical_and``/``logical_or``
compute what Python's operator means, per element under vmap. So such an
operation does not need a concrete value: the sinks do not count it (a
parameter read there need not become static), and JAX309 rewrites it.

Exact only for booleans: ``2.0 and x`` is ``x`` in Python, while
``logical_and`` gives a bool. An operand counts as one when it is a
comparison or a test (`boolean_arrays.is_boolean`), or a name holding one:
assigned one, or a parameter annotated ``bool`` or given a boolean by every
call (through jit, whose tracer of a bool is a boolean array). The rewrite
evaluates every operand where Python could stop early, so each one after the
first must have no effect (`purity.is_pure`); an operand that is itself a
chained comparison (``lo < x < hi``) takes a Python bool of its own. The
operand of ``not`` itself may be any array: ``logical_not`` is Python's truth
test per element (``not 2.0`` is ``False``, ``logical_not(2.0)`` too). An
unparenthesized ``&``/``|``/``^`` under ``not`` is reported instead: Python
reads ``not a | b`` as ``not (a | b)``, which a faithful rewrite would keep,
while jaxopt's ``not self.stop_if_linesearch_fails | ~state.failed_linesearch``
meant ``(not a) | b`` (jaxopt#350).
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from jaxfix.transforms.core.findings import shorten
from jaxfix.transforms.semantics.array_destinations import unknown_destination
from jaxfix.transforms.semantics.boolean_arrays import is_boolean
from jaxfix.transforms.semantics.constants import single_binding
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, call_argument
from jaxfix.transforms.semantics.purity import is_pure
from jaxfix.transforms.semantics.tracing import TraceIndex
from jaxfix.transforms.semantics.vocabulary import JIT

#: Where the operation's value is taken as a Python bool: no jax.numpy function helps there.
_CONDITIONS = (cst.If, cst.While, cst.Assert, cst.IfExp, cst.CompIf)
#: ``not a | b`` is ``not (a | b)``: the precedence trap JAX309 reports rather than keeps.
_BITWISE = (cst.BitOr, cst.BitAnd, cst.BitXor)
#: The jax.numpy function for each operator.
FUNCTIONS = {cst.And: "logical_and", cst.Or: "logical_or"}


def is_logical(node: cst.CSTNode | None) -> bool:
    """``not x``, ``a and b``, ``a or b``."""
    return isinstance(node, cst.BooleanOperation) or (
        isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not)
    )


def outermost(ctx: ModuleContext, node: cst.BaseExpression) -> cst.BaseExpression:
    """The whole operation `node` is an operand of (``not (a and b)`` for ``a``)."""
    while is_logical(parent := ctx.parent(node)):
        node = parent  # type: ignore[assignment]
    return node


def taken_as_condition(ctx: ModuleContext, node: cst.BaseExpression) -> bool:
    """The operation's value is a Python condition anyway: a test, or ``bool(...)``."""
    parent = ctx.parent(node)
    if isinstance(parent, _CONDITIONS) and getattr(parent, "test", None) is node:
        return True
    if isinstance(parent, cst.Arg):
        call = ctx.parent(parent)
        return isinstance(call, cst.Call) and ctx.names.qualified_name(call.func) == "builtins.bool"
    return False


def operands(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The operands of a (nested) logical operation, in the order Python evaluates them."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        return operands(node.expression)
    if isinstance(node, cst.BooleanOperation):
        return [*operands(node.left), *operands(node.right)]
    return [node]


def taken(node: cst.BaseExpression, *, last_free: bool = True) -> list[cst.BaseExpression]:
    """The operands whose Python bool is taken: under ``not``, all; in ``and``/``or``, all but
    the last, unless the whole is itself taken."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        return taken(node.expression, last_free=False)
    if isinstance(node, cst.BooleanOperation):
        return [*taken(node.left, last_free=False), *taken(node.right, last_free=last_free)]
    return [] if last_free else [node]


def blocker(
    ctx: ModuleContext,
    traces: TraceIndex | None,
    node: cst.BaseExpression,
    is_array: Callable[[cst.BaseExpression], bool] = lambda expr: False,
) -> str | None:
    """Why the jax.numpy form of the whole operation `node` would not compute what Python's
    does; None when it would (a condition is not this function's question). An operand of
    ``not`` itself may be any array (`is_array`): ``logical_not`` is Python's truth test per
    element, ``x == 0``."""
    parts = operands(node)
    negated = _negated(node)
    for part in negated:
        if isinstance(part, cst.BinaryOperation) and isinstance(part.operator, _BITWISE) and not part.lpar:
            return (f"`not {shorten(ctx.code(part))}` is `not ({shorten(ctx.code(part))})` in Python, but "
                    f"`(not {shorten(ctx.code(part.left))}) {ctx.code(part.operator).strip()} ...` may have been meant")
    for part in parts:
        if not boolean_value(ctx, traces, part) and not (any(part is n for n in negated) and is_array(part)):
            return f"`{shorten(ctx.code(part))}` may not be a boolean (`and`/`or` return an operand, `logical_*` a bool)"
    for part in parts:
        if isinstance(part, cst.Comparison) and len(part.comparisons) > 1:
            return f"`{shorten(ctx.code(part))}` is a chained comparison: it takes a Python bool of its own"
    for part in parts[1:]:
        if not is_pure(ctx, part):
            return f"`{shorten(ctx.code(part))}` would be evaluated where Python skips it"
    return None


def _negated(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The operands that are directly the operand of a ``not``."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        inner = node.expression
        return _negated(inner) if is_logical(inner) else [inner]
    if isinstance(node, cst.BooleanOperation):
        return [*_negated(node.left), *_negated(node.right)]
    return []


def serves_as_value(
    ctx: ModuleContext,
    traces: TraceIndex | None,
    node: cst.BaseExpression,
    is_array: Callable[[cst.BaseExpression], bool] = lambda expr: False,
) -> bool:
    """The whole operation around `node` is used as a value and its jax.numpy form computes the
    same: a tracer read there needs no concrete bool."""
    top = outermost(ctx, node)
    return (
        not taken_as_condition(ctx, top)
        and blocker(ctx, traces, top, is_array) is None
        and unknown_destination(ctx, traces, top) is None
    )


def boolean_value(ctx: ModuleContext, traces: TraceIndex | None, expr: cst.BaseExpression, _depth: int = 0) -> bool:
    """Surely a boolean: `is_boolean` (a name assigned one too), or a parameter annotated
    ``bool`` or given one by every call (see the module docstring), which takes `traces`."""
    if is_boolean(ctx, expr, reductions=True):
        return True
    if not isinstance(expr, cst.Name) or _depth > 4:
        return False
    binding = single_binding(ctx, expr)
    if not isinstance(binding, cst.Param):
        return False
    annotation = binding.annotation
    if annotation is not None and isinstance(annotation.annotation, cst.Name) and annotation.annotation.value == "bool":
        return True
    fn = ctx.enclosing_function(binding)
    routes = traces.routes(fn) if traces is not None and fn is not None else None
    if not routes:
        return False
    signature = function_info(ctx, fn).signature  # type: ignore[arg-type]
    for route in routes:
        if route.call is None or route.escapes or route.uncertain or any(w.name != JIT for w in route.wraps):
            return False
        argument = call_argument(route.call, signature, binding.name.value, bound=route.bound, consumed=route.consumed)
        if argument is DEFAULT:
            argument = binding.default
        if not isinstance(argument, cst.BaseExpression) or not is_boolean(ctx, argument, reductions=True):
            return False
    return True


def functions(node: cst.BaseExpression) -> list[str]:
    """The jax.numpy functions `written` calls for `node`, in order of first use."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        return list(dict.fromkeys(["logical_not", *functions(node.expression)]))
    if isinstance(node, cst.BooleanOperation):
        return list(dict.fromkeys([FUNCTIONS[type(node.operator)], *functions(node.left), *functions(node.right)]))
    return []


def written(ctx: ModuleContext, node: cst.BaseExpression, names: dict[str, str]) -> str:
    """`node` with ``not``/``and``/``or`` written as jax.numpy's logical functions, each spelled
    as `names` says (``{"logical_and": "jnp.logical_and"}``): a call, which needs none of the
    operation's parentheses."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        return f"{names['logical_not']}({written(ctx, node.expression, names)})"
    if isinstance(node, cst.BooleanOperation):
        function = names[FUNCTIONS[type(node.operator)]]
        return f"{function}({written(ctx, node.left, names)}, {written(ctx, node.right, names)})"
    return ctx.code(node)
