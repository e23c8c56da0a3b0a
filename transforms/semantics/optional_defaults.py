"""``p or default`` where ``p`` is an optional parameter a jit traces means ``default if p is None else p``.

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

import libcst as cst

from jaxfix.transforms.semantics.constants import reaching_parameter, single_binding
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, call_argument
from jaxfix.transforms.semantics.tracing import Route, TraceIndex
from jaxfix.transforms.semantics.vocabulary import JIT

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
