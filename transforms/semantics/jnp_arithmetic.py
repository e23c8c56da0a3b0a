"""jnp arithmetic that could be Python's: which call an expression is, and on what.

``jnp.minimum(a, b)``, ``jnp.add``, ``jnp.array(n)``, ``x.astype(int)`` on
would-be Python ints are recorded under jit, so their result is a tracer
even when every operand is static (docs/jax4xx-behaviour.md, B). JAX402
rewrites them; JAX403 and the value model need to recognise them too.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

_CALLS = {"jax.numpy.minimum": "min", "jax.numpy.maximum": "max", "jax.numpy.abs": "abs", "jax.numpy.absolute": "abs"}
_OPERATORS = {
    "jax.numpy.add": "+",
    "jax.numpy.subtract": "-",
    "jax.numpy.multiply": "*",
    "jax.numpy.floor_divide": "//",
    "jax.numpy.remainder": "%",
    "jax.numpy.mod": "%",
}
_ARITY = {"min": 2, "max": 2, "abs": 1}
_WRAPPERS = frozenset({"jax.numpy.array", "jax.numpy.asarray", "jax.numpy.int32", "jax.numpy.int64"})
_DIVISIONS = frozenset({"jax.numpy.divide", "jax.numpy.true_divide"})
_INT_TYPES = frozenset({"builtins.int", "jax.numpy.int32", "jax.numpy.int64", "numpy.int32", "numpy.int64"})


@dataclass(frozen=True)
class Op:
    """One jnp call on would-be Python values: ``jnp.minimum(a, b)``, maybe under ``.astype(int)``."""

    node: cst.BaseExpression  # the outermost node: the astype call when there is one
    call: cst.Call
    #: "min", "max", "abs", an operator ("+", "//"...), "wrap" (jnp.array(E)), "divide".
    kind: str
    operands: tuple[cst.BaseExpression, ...]
    astype: bool = False


def _int_type(ctx, expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.SimpleString):
        return expr.evaluated_value in ("int32", "int64")
    return ctx.names.qualified_name(expr) in _INT_TYPES


def read_op(ctx, expr: cst.BaseExpression) -> Op | None:
    """The jnp call an expression is, when it is one JAX402 knows."""
    if not isinstance(expr, cst.Call):
        return None
    func = expr.func
    if isinstance(func, cst.Attribute) and func.attr.value == "astype":
        if len(expr.args) != 1 or expr.args[0].keyword is not None or not _int_type(ctx, expr.args[0].value):
            return None
        inner = read_op(ctx, func.value)
        if inner is None or inner.astype:
            return None
        return Op(expr, inner.call, inner.kind, inner.operands, True)
    qualified = ctx.names.qualified_name(func) or ""
    if qualified in _WRAPPERS and _int_dtype_keyword(ctx, expr):
        # ``jnp.array(1, dtype=jnp.int32)`` is ``jnp.array(1).astype(jnp.int32)`` (jax#12331)
        positional = [a for a in expr.args if a.keyword is None]
        return Op(expr, expr, "wrap", (positional[0].value,), True) if len(positional) == 1 else None
    if any(a.keyword is not None or a.star for a in expr.args):
        return None
    operands = tuple(a.value for a in expr.args)
    if qualified in _CALLS:
        kind = _CALLS[qualified]
        return Op(expr, expr, kind, operands) if len(operands) == _ARITY[kind] else None
    if qualified in _OPERATORS and len(operands) == 2:
        return Op(expr, expr, _OPERATORS[qualified], operands)
    if qualified in _DIVISIONS and len(operands) == 2:
        return Op(expr, expr, "divide", operands)
    if qualified in _WRAPPERS and len(operands) == 1:
        return Op(expr, expr, "wrap", operands)
    return None


def _int_dtype_keyword(ctx, call: cst.Call) -> bool:
    """The call's only keyword is ``dtype=`` an integer type, and nothing is starred."""
    keywords = [a for a in call.args if a.keyword is not None]
    return (
        len(keywords) == 1
        and keywords[0].keyword.value == "dtype"  # type: ignore[union-attr]
        and not any(a.star for a in call.args)
        and _int_type(ctx, keywords[0].value)
    )
