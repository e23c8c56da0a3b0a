"""An array that only repeats one Python value, built to be mapped: ``jnp.full(xs.shape, degree)``.

People replacing a list comprehension with ``vmap`` make every argument an array
of the batch's length, the constant ones too (openillumi's "vmap wherever I
would write a list comprehension": ``degrees = jnp.full(xs.shape, degree)``,
then ``vmap(poly_features)(xs, degrees)``). Each example then gets ``degree`` as
a tracer, and ``jnp.arange(degree + 1)`` fails. Every example's value is the
same Python value, so passing that value unmapped (``in_axes=None``) gives each
example the value it had, concrete. Read here: ``jnp.full(shape, v)``,
``jnp.full_like(x, v)``, ``jnp.broadcast_to(v, shape)``, ``jnp.repeat(v, n)``,
``jnp.ones(shape) * v`` (either order), or a name bound once to one of them,
with ``v`` a Python number (a literal, or what `python_values` proves one).
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.constants import NOT_CONSTANT, assigned_value, constant_value, single_binding
from jaxfix.transforms.semantics.python_values import PythonValue, ValueKind, python_value

#: Calls that fill an array with one value: (the position of the value, its keyword).
_FILLS = {
    "jax.numpy.full": (1, "fill_value"),
    "jax.numpy.full_like": (1, "fill_value"),
    "jax.numpy.broadcast_to": (0, "array"),
    "jax.numpy.repeat": (0, "a"),
}
_ONES = frozenset({"jax.numpy.ones", "jax.numpy.ones_like"})


def repeated_python_value(analysis: Analysis, expr: cst.BaseExpression, depth: int = 0) -> cst.BaseExpression | None:
    """The Python number `expr` repeats along its leading axis, as written; None otherwise."""
    ctx = analysis.ctx
    if depth > 3:
        return None
    if isinstance(expr, cst.Name):
        binding = single_binding(ctx, expr)
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        return repeated_python_value(analysis, value, depth + 1) if value is not None else None
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Multiply):
        for ones, value in ((expr.left, expr.right), (expr.right, expr.left)):
            if isinstance(ones, cst.Call) and ctx.names.qualified_name(ones.func) in _ONES and _number(analysis, value):
                return value
        return None
    if not isinstance(expr, cst.Call) or any(a.star for a in expr.args):
        return None
    fill = _FILLS.get(ctx.names.qualified_name(expr.func) or "")
    if fill is None:
        return None
    position, keyword = fill
    positional = [a for a in expr.args if a.keyword is None]
    given = next((a.value for a in expr.args if a.keyword is not None and a.keyword.value == keyword), None)
    if given is None and position < len(positional):
        given = positional[position].value
    if any(a.keyword is not None and a.keyword.value == "dtype" for a in expr.args):
        return None  # a dtype the Python value would not carry
    return given if given is not None and _number(analysis, given) else None


def _number(analysis: Analysis, expr: cst.BaseExpression) -> bool:
    """A Python int or float: a literal, or a value `python_values` proves a number."""
    constant = constant_value(analysis.ctx, expr)
    if constant is not NOT_CONSTANT:
        return isinstance(constant, (int, float)) and not isinstance(constant, bool)
    value = python_value(analysis, expr)
    return isinstance(value, PythonValue) and value.kind is ValueKind.NUMBER
