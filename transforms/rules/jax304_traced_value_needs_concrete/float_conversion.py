"""JAX304's repair for ``float(t)`` of a tracer whose Python float nothing needs.

``float()`` asks a tracer for its value, which it has not got. People write
it to get a plain number (``return float(res)`` from a jitted objective,
OpenFermion#1396; ``float(step_size)`` handed to a helper that only
multiplies it, blackjax#1029), where the array would serve as well: the
conversion goes, ``float(res)`` becomes ``res``. Exact where every place the
value goes takes an array as readily (`array_destinations.needless_float`:
arithmetic, jax.numpy, a value a jitted function returns). It keeps the
number's dtype: a floating array stays what ``float()`` meant; an integer
array would stay integer (``n // 2`` gives ``3``, not ``3.0``), so the fix
is safe only when the operand is surely floating (a float literal in its
arithmetic, a true division, a jax.numpy function that returns floats).

Under differentiation alone the tracer keeps its value, and ``float()`` still
refuses it; a comparison in a Python condition reads the value itself, so
there the conversion goes whatever the dtype (`compared_in_condition`,
jax#2783).
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Edit, Finding, shorten
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_destinations import needless_float, needless_item
from jaxfix.transforms.semantics.boolean_arrays import is_boolean
from jaxfix.transforms.semantics.constants import assigned_value, single_binding
from jaxfix.transforms.semantics.module import ModuleContext

#: jax.numpy functions whose result is floating for any input.
_FLOATING = frozenset(
    {"exp", "exp2", "expm1", "log", "log1p", "log2", "log10", "sqrt", "cbrt", "sin", "cos", "tan", "arcsin",
     "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "mean", "average", "std", "var", "nanmean", "nanstd",
     "nanvar", "true_divide", "divide", "hypot", "logaddexp", "reciprocal", "deg2rad", "rad2deg", "radians",
     "degrees", "median", "quantile", "percentile", "linalg.norm", "linalg.det", "logsumexp"}
)
#: Atoms a bare operand needs no parentheses around.
_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float)


def drop_float(analysis: Analysis, sink: cst.CSTNode) -> tuple[Edit, str | None] | None:
    """(the edit that drops the conversion, why it is unsafe or None) for a ``float(x)`` sink
    whose value only goes where an array serves; None otherwise. ``x.item()`` so becomes
    ``x.reshape(())``: ``.item()`` takes the one element of an array of any shape, which a 0-d
    array holds the same (and ``reshape`` fails where ``.item()`` would, on more elements)."""
    ctx = analysis.ctx
    if not isinstance(sink, cst.Call):
        return None
    if needless_item(ctx, analysis.traces, sink):
        receiver = sink.func.value  # type: ignore[attr-defined]
        # A float or a bool array: `.item()` gives the Python float or bool of the same value (a bool
        # promotes alike either way); an integer would become a weakly typed Python int.
        sure = _floating(analysis, receiver) or is_boolean(ctx, receiver, reductions=True)
        unsure = None if sure else (
            f"`{ctx.code(receiver)}` may hold an integer, which `.item()` makes a weakly typed Python int"
        )
        return ctx.replace(sink, f"{ctx.code(receiver)}.reshape(())"), unsure
    if not needless_float(ctx, analysis.traces, sink):
        return None
    operand = sink.args[0].value
    bare = isinstance(ctx.parent(sink), (cst.Arg, cst.Return, cst.Assign, cst.AnnAssign))
    edit = _unwrapped(analysis, sink, bare)
    unsure = None if _floating(analysis, operand) else (
        f"`{ctx.code(operand)}` may hold integers, which stay integers without `float()`"
    )
    return edit, unsure


def dropped_float_finding(
    ctx: ModuleContext, call: cst.Call, head: str, the_float: str, edit: Edit, unsure: str | None
) -> Finding:
    """The finding for a `drop_float` edit: `head`, then why the conversion goes (`the_float` names it)."""
    return ctx.finding(
        "JAX304",
        call,
        f"{head}; {the_float} would only be used where the array serves as well (arithmetic, jax.numpy, a value "
        "a jitted function returns), so the conversion goes",
        (edit,),
        Applicability.UNSAFE if unsure else Applicability.SAFE,
        description=f"drop the conversion: `{shorten(edit.content)}`",
        notes=(f"unsafe: {unsure}",) if unsure else (),
    )


def compared_in_condition(analysis: Analysis, call: cst.Call) -> Edit | None:
    """The edit dropping ``float(x)`` where its float is one side of a comparison that is a Python
    condition (an ``if``/``while``/conditional expression's test, through ``not``/``and``/``or``):
    the comparison gives the same bool for the value itself, under differentiation too, and no
    gradient flows through a bool (jax#2783)."""
    ctx = analysis.ctx
    parent = ctx.parent(call)
    comparison = ctx.parent(parent) if isinstance(parent, cst.ComparisonTarget) else parent
    if not isinstance(comparison, cst.Comparison):
        return None
    node: cst.CSTNode = comparison
    while isinstance(holder := ctx.parent(node), (cst.BooleanOperation, cst.UnaryOperation)):
        if isinstance(holder, cst.UnaryOperation) and not isinstance(holder.operator, cst.Not):
            return None
        node = holder
    holder = ctx.parent(node)
    if not isinstance(holder, (cst.If, cst.While, cst.IfExp)) or holder.test is not node:
        return None
    return _unwrapped(analysis, call, bare=False)


def _unwrapped(analysis: Analysis, call: cst.Call, bare: bool) -> Edit:
    """``float(x)`` becomes ``x``, in parentheses where it is no atom and the place it lands could
    bind differently (`bare`: an argument, a return, an assignment's value cannot)."""
    ctx = analysis.ctx
    operand = call.args[0].value
    text = ctx.code(operand)
    return ctx.replace(call, text if bare or isinstance(operand, _ATOMS) or operand.lpar else f"({text})")


def _floating(analysis: Analysis, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """Surely a floating value: a float literal in its arithmetic, a true division, a jax.numpy
    function that returns floats, a name bound once to one of those, or an item of one."""
    ctx = analysis.ctx
    if depth > 8:
        return False
    if isinstance(expr, cst.Float):
        return True
    if isinstance(expr, cst.BinaryOperation):
        if isinstance(expr.operator, cst.Divide):
            return True
        if isinstance(expr.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.Power)):
            return _floating(analysis, expr.left, depth + 1) or _floating(analysis, expr.right, depth + 1)
        return False
    if isinstance(expr, cst.UnaryOperation):
        return _floating(analysis, expr.expression, depth + 1)
    if isinstance(expr, cst.Call):
        qualified = ctx.names.qualified_name(expr.func) or ""
        if qualified.startswith("jax.numpy."):
            return qualified[len("jax.numpy."):] in _FLOATING
        if qualified.startswith(("jax.nn.", "jax.scipy.special.")):
            return True
        if isinstance(expr.func, cst.Attribute) and not qualified and expr.func.attr.value in ("mean", "std", "var"):
            return True
        if qualified == "builtins.sum" and len(expr.args) == 1 and not expr.args[0].star:
            return _floating(analysis, expr.args[0].value, depth + 1)  # a sum of floats
        return False
    if isinstance(expr, cst.Subscript):
        return _floating(analysis, expr.value, depth + 1)  # an element or a slice keeps the dtype
    if isinstance(expr, cst.Name):
        binding = single_binding(ctx, expr)
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        return value is not None and _floating(analysis, value, depth + 1)
    return False
