"""``p or default`` where ``p`` is an optional parameter a jit traces means ``default if p is None else p``;
``if not (a or b):`` of such parameters means ``if a is None and b is None:`` (`presence_test`).

``def _apply(self, lr, grads, momentum: Optional[float] = None)`` under
``jax.jit`` with ``momentum = momentum or self.momentum`` runs while the call
leaves ``momentum`` out (None is an empty pytree: jit hands the function None)
and fails as soon as one passes a value: jit hands a tracer, and ``or`` asks
for its truth value (TracerBoolConversionError; objax#92, whose fix is the
``is None`` test). What was meant is "the default when none is given", which
``is None`` says without asking the tracer anything.

The rewrite is exact where the parameter can only be None or a tracer of a
number or an array: the function runs only under jits that trace the
parameter (no eager call, where ``0.0 or d`` gives ``d``), and the parameter
is annotated as an optional number or array, or every call passes None, a
number, or leaves it out (a container could be empty, and falsy).
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from jaxfix.transforms.semantics.constants import reaching_parameter, single_binding
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, call_argument
from jaxfix.transforms.semantics.tracing import Route, TraceIndex
from jaxfix.transforms.semantics.vocabulary import JIT, MAPPING

#: Annotations of a number or an array, as they are imported.
_VALUE_TYPES = frozenset(
    {
        "builtins.float", "builtins.int", "builtins.complex", "builtins.bool",
        "jax.Array", "jax.numpy.ndarray", "jax.typing.ArrayLike", "numpy.ndarray", "chex.Array",
        "chex.Numeric", "chex.Scalar",
    }
)


def optional_or_default(ctx: ModuleContext, traces: TraceIndex, node: cst.CSTNode) -> str | None:
    """``default if p is None else p`` for ``p or default`` when that rewrite is exact, given that
    the jits around p's function trace p (module docstring); else None. JAX309 rewrites it, and
    the search for a parameter's concrete uses (JAX302's) does not count it as one."""
    if not isinstance(node, cst.BooleanOperation) or not isinstance(node.operator, cst.Or):
        return None
    left, right = node.left, node.right
    if not isinstance(left, cst.Name) or isinstance(right, cst.BooleanOperation):
        return None
    param = single_binding(ctx, left) or reaching_parameter(ctx, left)
    if not isinstance(param, cst.Param) or not _is_none(param.default):
        return None
    fn = ctx.enclosing_function(param)
    routes = traces.routes(fn) if fn is not None else None
    if not routes or any(r.escapes or not any(w.name == JIT for w in r.wraps) for r in routes):
        return None  # an eager run would see a Python value, whose truth `or` reads
    if not (_annotated_value(ctx, param) or _every_call_passes_a_value(ctx, fn, routes, left.value)):  # type: ignore[arg-type]
        return None
    default = ctx.code(right)
    if isinstance(right, (cst.IfExp, cst.Lambda, cst.NamedExpr)):
        default = f"({default})"
    return f"{default} if {left.value} is None else {left.value}"


def _is_none(expr: cst.BaseExpression | None) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def _annotated_value(ctx: ModuleContext, param: cst.Param) -> bool:
    """``Optional[float]``, ``float | None``, ``Union[jax.Array, None]``: a number or an array, or None."""
    if param.annotation is None:
        return False
    names = ctx.names
    parts: list[cst.BaseExpression] = []
    annotation = param.annotation.annotation
    if isinstance(annotation, cst.Subscript) and names.qualified_name(annotation.value) in ("typing.Optional", "typing.Union"):
        parts = [e.slice.value for e in annotation.slice if isinstance(e.slice, cst.Index)]
        if names.qualified_name(annotation.value) == "typing.Optional":
            parts.append(cst.Name("None"))
    elif isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        parts = [annotation.left, annotation.right]
    values = [p for p in parts if not _is_none(p)]
    return bool(values) and len(values) < len(parts) and all(names.qualified_name(p) in _VALUE_TYPES for p in values)


def _every_call_passes_a_value(ctx: ModuleContext, fn: FunctionNode, routes: tuple[Route, ...], param: str) -> bool:
    """Each call leaves the parameter out, or passes None or a number written there."""
    sig = function_info(ctx, fn).signature
    for route in routes:
        if route.call is None:
            return False
        argument = call_argument(route.call, sig, param, bound=route.bound, consumed=route.consumed)
        if argument is DEFAULT:
            continue
        if not isinstance(argument, (cst.Integer, cst.Float, cst.Imaginary)) and not _is_none(argument):  # type: ignore[arg-type]
            return False
    return True


#: The transforms under which a given array is a tracer, whose truth a test cannot take.
_TRACING = MAPPING | {JIT}


def presence_test(
    ctx: ModuleContext, traces: TraceIndex, test: cst.BaseExpression, is_array: Callable[[cst.BaseExpression], bool]
) -> tuple[str, list[cst.Name]] | None:
    """``not (train_state or rng)`` written as "was none of them given?": the same test with ``is
    None`` (``train_state is None and rng is None``), and the names it reads; None when `test` is
    not such a test, or the rewrite is not shown to change only runs that failed.

    Each name must be a parameter whose default is None, of a function every run of which goes
    through a jit or vmap (no eager call, where a falsy Python value would answer differently),
    each call leaving it out or passing None or an array (rejax's DQN.train, jitted and vmapped
    over keys): a given array is a tracer there, whose truth the test cannot take, so ``is not
    None`` answers only where the original raised."""
    names: list[cst.Name] = []
    text = _presence(test, names, negated=False)
    if text is None or not names:
        return None
    for name in names:
        param = single_binding(ctx, name) or reaching_parameter(ctx, name)
        if not isinstance(param, cst.Param) or not _is_none(param.default):
            return None
        fn = ctx.enclosing_function(param)
        if fn is None or ctx.enclosing_function(name) is not fn:
            return None
        routes = traces.routes(fn)
        if not routes or any(r.escapes or r.call is None or not any(w.name in _TRACING for w in r.wraps) for r in routes):
            return None
        if not (_annotated_value(ctx, param) or _every_call_passes_none_or_array(ctx, fn, routes, name.value, is_array)):
            return None
    return text, names


def _presence(expr: cst.BaseExpression, names: list[cst.Name], negated: bool) -> str | None:
    """The test of `expr` (negated: of ``not expr``) with each name's truth read as ``is not None``."""
    if isinstance(expr, cst.Name) and expr.value not in ("None", "True", "False"):
        names.append(expr)
        return f"{expr.value} is None" if negated else f"{expr.value} is not None"
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
        return _presence(expr.expression, names, not negated)
    if isinstance(expr, cst.BooleanOperation):
        left = _presence(expr.left, names, negated)
        right = _presence(expr.right, names, negated)
        if left is None or right is None:
            return None
        is_or = isinstance(expr.operator, cst.Or)
        joined = "or" if is_or != negated else "and"  # De Morgan under `not`
        return f"{_grouped(left, joined)} {joined} {_grouped(right, joined)}"
    return None


def _grouped(text: str, joined: str) -> str:
    """Parenthesize a part joined by the other operator."""
    other = " and " if joined == "or" else " or "
    return f"({text})" if other in text else text


def _every_call_passes_none_or_array(
    ctx: ModuleContext, fn: FunctionNode, routes: tuple[Route, ...], param: str, is_array: Callable[[cst.BaseExpression], bool]
) -> bool:
    """Each call leaves the parameter out, or passes None or an array (`is_array`)."""
    sig = function_info(ctx, fn).signature
    for route in routes:
        argument = call_argument(route.call, sig, param, bound=route.bound, consumed=route.consumed)
        if argument is DEFAULT or _is_none(argument):  # type: ignore[arg-type]
            continue
        if not isinstance(argument, cst.BaseExpression) or not is_array(argument):
            return False
    return True
