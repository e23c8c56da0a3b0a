"""A ``lax.cond`` whose predicate a static-parameter fix makes a Python bool becomes a Python choice.

``jax.lax.cond(T == 0, infinite_period, finite_period)`` traces both branches and
requires their outputs to have the same types. With ``T`` traced, the finite
branch's ``jnp.empty((T + 1, n, n))`` fails; made static (JAX302), ``T == 0`` is a
Python bool, but cond still traces the branch not taken, whose shape now differs
(QuantEcon's Arrow-securities lecture: ``(1, n, n)`` against ``(T + 1, n, n)``).
``(infinite_period if T == 0 else finite_period)()`` calls the branch cond would
have chosen, with the same operands: the same value, and only that branch is traced.

Obligations: the call is ``jax.lax.cond(pred, true_fun, false_fun, *operands)``
written positionally; the predicate is made of the parameters made static (read
where they are the function's own), literals, comparisons and ``not``/``and``/``or``,
so Python evaluates it; each branch is a name, an attribute or a lambda, whose
evaluation does nothing.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.semantics.constants import reaching_binding
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.reads import parameter

COND = "jax.lax.cond"


def static_choices(ctx: ModuleContext, fn: FunctionNode, params: tuple[str, ...]) -> list[Edit]:
    """The edits making each such ``lax.cond`` in `fn` (or a function nested in it) a Python choice."""
    static = {p: parameter(fn, p) for p in params}
    edits: list[Edit] = []
    for call in ctx.descendants(fn, cst.Call):
        if ctx.names.qualified_name(call.func) != COND or len(call.args) < 3:
            continue
        if any(a.keyword is not None or a.star for a in call.args):
            continue
        pred, true_fun, false_fun, *operands = (a.value for a in call.args)
        if not _python_test(ctx, pred, static) or not all(isinstance(b, (cst.Name, cst.Attribute, cst.Lambda)) for b in (true_fun, false_fun)):
            continue
        choice = f"({ctx.code(true_fun)} if {ctx.code(pred)} else {ctx.code(false_fun)})"
        edits.append(ctx.replace(call, f"{choice}({', '.join(ctx.code(o) for o in operands)})"))
    return edits


def _python_test(ctx: ModuleContext, expr: cst.BaseExpression, static: dict[str, cst.Param | None]) -> bool:
    """Python answers `expr`: literals and the static parameters (each read the function's own),
    joined by comparisons, ``not``, ``and``, ``or``."""
    if isinstance(expr, (cst.Integer, cst.Float, cst.SimpleString)):
        return True
    if isinstance(expr, cst.Name):
        if expr.value in ("True", "False", "None"):
            return True
        declared = static.get(expr.value)
        return declared is not None and reaching_binding(ctx, expr) is declared
    if isinstance(expr, cst.Comparison):
        return _python_test(ctx, expr.left, static) and all(_python_test(ctx, c.comparator, static) for c in expr.comparisons)
    if isinstance(expr, cst.BooleanOperation):
        return _python_test(ctx, expr.left, static) and _python_test(ctx, expr.right, static)
    if isinstance(expr, cst.UnaryOperation):
        return isinstance(expr.operator, (cst.Not, cst.Minus)) and _python_test(ctx, expr.expression, static)
    return False
