"""Which expressions are surely boolean arrays (when they are arrays at all).

Two rules rewrite a Python boolean operation into its jax.numpy form and need
to know the operands are booleans: JAX308 (a mask used as an index, where only
an element-wise mask keeps the array's shape) and JAX309 (``not``/``and``/``or``
of a tracer, where ``jnp.logical_*`` of booleans is what Python's operator
means, while ``jnp.logical_and(2.0, x)`` of numbers would not return a number
as ``2.0 and x`` does).
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.semantics.constants import assigned_value, reaching_binding, single_binding
from jaxfix.transforms.semantics.module import ModuleContext

#: jax.numpy functions whose result is an element-wise boolean of their array arguments.
ELEMENTWISE_TESTS = frozenset(
    {"isnan", "isinf", "isfinite", "isposinf", "isneginf", "signbit", "logical_and", "logical_or", "logical_not",
     "logical_xor", "greater", "greater_equal", "less", "less_equal", "equal", "not_equal", "isclose"}
)
#: jax.numpy functions whose result is one boolean for all their arguments.
REDUCING_TESTS = frozenset({"allclose", "array_equal", "array_equiv", "all", "any"})
#: Methods of jax.Array that reduce to one boolean.
REDUCING_METHODS = frozenset({"all", "any"})


def _along_axis(call: cst.Call) -> bool:
    """``jnp.all(m, axis=-1)`` or ``jnp.any(m, 0)``: reduced along an axis, not to one value."""
    positional = [a for a in call.args if a.keyword is None and not a.star]
    return len(positional) > 1 or any(a.keyword is not None and a.keyword.value == "axis" for a in call.args)


def is_boolean(ctx: ModuleContext, expr: cst.BaseExpression, *, reductions: bool = False, _depth: int = 0) -> bool:
    """Surely a boolean array where it is an array: a comparison, an element-wise test, and
    ``&``/``|``/``^``/``~`` of those, or a name bound once to one (``mask = x < n``); with
    `reductions`, also ``jnp.allclose``, ``jnp.all``, ``x.any()``, ``not`` and ``and``/``or`` of
    booleans (one boolean for the whole array)."""
    if isinstance(expr, cst.Name) and expr.value not in ("True", "False"):
        binding = single_binding(ctx, expr) or reaching_binding(ctx, expr)  # `mask = ...` then `mask = jnp.all(mask, axis=-1)`
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) and _depth < 4 else None
        return value is not None and is_boolean(ctx, value, reductions=reductions, _depth=_depth + 1)
    if isinstance(expr, cst.Comparison):
        return all(not isinstance(c.operator, (cst.In, cst.NotIn, cst.Is, cst.IsNot)) for c in expr.comparisons)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.BitInvert):
        return is_boolean(ctx, expr.expression, reductions=reductions)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)):
        return is_boolean(ctx, expr.left, reductions=reductions) and is_boolean(ctx, expr.right, reductions=reductions)
    if isinstance(expr, cst.Call):
        qualified = ctx.names.qualified_name(expr.func) or ""
        if qualified.startswith("jax.numpy."):
            name = qualified.rpartition(".")[2]
            if name in ("all", "any") and _along_axis(expr):
                return True  # `jnp.all(m, axis=-1)`: a boolean for each row, an array still
            return name in ELEMENTWISE_TESTS or (reductions and name in REDUCING_TESTS)
        return (
            reductions
            and not qualified
            and isinstance(expr.func, cst.Attribute)
            and expr.func.attr.value in REDUCING_METHODS
            and not expr.args
        )
    if not reductions:
        return False
    if isinstance(expr, cst.Name):
        return expr.value in ("True", "False")
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
        return is_boolean(ctx, expr.expression, reductions=True)
    if isinstance(expr, cst.BooleanOperation):
        return is_boolean(ctx, expr.left, reductions=True) and is_boolean(ctx, expr.right, reductions=True)
    return False
