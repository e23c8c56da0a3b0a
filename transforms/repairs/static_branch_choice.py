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
from jaxfix.transforms.semantics.callables import plain_def
from jaxfix.transforms.semantics.constants import reaching_binding
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.passed_arguments import call_argument
from jaxfix.transforms.semantics.reads import parameter

COND = "jax.lax.cond"


def static_choices(ctx: ModuleContext, fn: FunctionNode, params: tuple[str, ...]) -> list[Edit] | str:
    """The edits making each such ``lax.cond`` in `fn` (or a function nested in it) a Python choice,
    and each in a helper `fn` hands such a predicate (``cond_via(T == 0, infinite, finite)``,
    ``def cond_via(pred, a, b): return lax.cond(pred, a, b)``) when every call of the helper is
    one of those; else why not (a helper also called with another predicate would keep tracing
    both branches)."""
    static = {p: parameter(fn, p) for p in params}
    edits: list[Edit] = []
    for call in ctx.descendants(fn, cst.Call):
        if ctx.names.qualified_name(call.func) != COND:
            handed = _helper_choices(ctx, call, static)
            if isinstance(handed, str):
                return handed
            edits.extend(handed)
            continue
        choice = _choice(ctx, call, lambda pred: _python_test(ctx, pred, static))
        if choice is not None:
            edits.append(choice)
    return edits


def _choice(ctx: ModuleContext, call: cst.Call, python_test) -> Edit | None:
    """``jax.lax.cond(pred, a, b, *ops)`` as ``(a if pred else b)(*ops)`` when Python answers `pred`."""
    if len(call.args) < 3 or any(a.keyword is not None or a.star for a in call.args):
        return None
    pred, true_fun, false_fun, *operands = (a.value for a in call.args)
    if not python_test(pred) or not all(isinstance(b, (cst.Name, cst.Attribute, cst.Lambda)) for b in (true_fun, false_fun)):
        return None
    choice = f"({ctx.code(true_fun)} if {ctx.code(pred)} else {ctx.code(false_fun)})"
    return ctx.replace(call, f"{choice}({', '.join(ctx.code(o) for o in operands)})")


def _helper_choices(ctx: ModuleContext, call: cst.Call, static: dict[str, cst.Param | None]) -> list[Edit] | str:
    """`call` of a def of the module handing it a predicate Python answers once `static` is static:
    the choices for the ``lax.cond`` calls in it that test the parameter it binds."""
    helper = plain_def(ctx, call.func)
    if helper is None or any(a.star for a in call.args):
        return []
    signature = function_info(ctx, helper).signature
    edits: list[Edit] = []
    for param in signature.params:
        argument = call_argument(call, signature, param.name, bound=False)
        if not isinstance(argument, cst.BaseExpression) or not _python_test(ctx, argument, static):
            continue
        declared = parameter(helper, param.name)
        conds = [
            c for c in ctx.descendants(helper, cst.Call)
            if ctx.names.qualified_name(c.func) == COND and c.args
            and isinstance(c.args[0].value, cst.Name) and reaching_binding(ctx, c.args[0].value) is declared
        ]
        if not conds:
            continue
        passed = ctx.passed_arguments(declared) if declared is not None else None
        if passed is None or any(not _python_test(ctx, p, static) for p in passed):
            return f"`{function_info(ctx, helper).name}` takes a `lax.cond` predicate that other calls give it too"
        for cond in conds:
            choice = _choice(ctx, cond, lambda pred: True)
            if choice is None:
                return f"the `lax.cond` in `{function_info(ctx, helper).name}` is not written so that Python can choose its branch"
            edits.append(choice)
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
