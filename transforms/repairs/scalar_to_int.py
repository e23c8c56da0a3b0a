"""Pass ``int(x)`` where a static slot is given an array that surely holds one integer.

dynalang#10: ``_one_hot(value, space.high)``, jitted with the depth static, where ``space.high``
is ``np.array(4, np.int32)`` stored by ``Space.__init__``: jit hashes its static arguments, and no
array is hashable; the function needs the depth as a Python int (``one_hot``'s size). ``int(...)``
at the call gives that int, the value the array holds, exactly (the reporter's fix).

Proof obligations, for every call this module makes through the jit (none from elsewhere, none
through another transform): the argument is a Python int (left as it is), or an array made by
``np.array(X)``/``np.asarray(X)`` (``jnp`` too), followed through names and the attribute an
``__init__`` stores it in (`object_classes`), whose data ``X`` is a Python int at every call
that makes it and whose ``dtype``, if given, is an integer dtype at every such call: a 0-d
integer array, whose ``int()`` is its value. ``int`` must be the builtin where each call is.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.imports import builtin_spelling
from jaxfix.transforms.repairs.traced_parameter import through
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.arguments import passed_to
from jaxfix.transforms.semantics.constants import assigned_value, constant_value, reaching_binding
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.object_classes import instance_classes, stored_in_init
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, call_argument
from jaxfix.transforms.semantics.passed_elsewhere import local_routes, passed_elsewhere
from jaxfix.transforms.semantics.tracing import JitEntry
from jaxfix.transforms.semantics.vocabulary import JIT

#: The constructors whose result holds the data they are given, in the dtype asked for.
_MAKERS = frozenset({"numpy.array", "numpy.asarray", "jax.numpy.array", "jax.numpy.asarray"})
#: Integer dtypes, as NumPy and jax.numpy name them.
_INTEGER_DTYPES = frozenset(
    f"{module}.{kind}{bits}" for module in ("numpy", "jax.numpy") for kind in ("int", "uint") for bits in (8, 16, 32, 64)
) | {"builtins.int", "numpy.int_", "numpy.intp", "numpy.uintp"}
#: How far a value is followed to the array it is.
_MAX_DEPTH = 6


def ints_at_calls(analysis: Analysis, fn: FunctionNode, entry: JitEntry, param: str) -> tuple[Edit, ...] | str:
    """The edits writing ``int(...)`` around each argument of `param` that is a one-integer array
    (see the module docstring); else why not."""
    ctx = analysis.ctx
    info = function_info(ctx, fn)
    routes = local_routes(analysis, fn)
    if routes is None:
        return f"the uses of `{info.name}` cannot all be listed"
    elsewhere = passed_elsewhere(ctx, fn, entry.node, param)
    if isinstance(elsewhere, str) or elsewhere:
        return f"other modules call `{info.name}`, and what they pass is theirs to convert"
    edits: list[Edit] = []
    for route in routes:
        if not through(route, entry):
            continue
        if route.escapes or route.call is None or any(w.name != JIT for w in route.wraps):
            return f"`{info.name}` is also used where its arguments cannot be seen"
        argument = call_argument(route.call, info.signature, param, bound=route.bound, consumed=route.consumed)
        if argument is DEFAULT or not isinstance(argument, cst.BaseExpression):
            return f"the call on line {ctx.span(route.call).start.line} passes `{param}` no argument we can convert"
        if _python_int(analysis, argument):
            continue
        if not _one_integer(analysis, argument, 0):
            return f"`{ctx.code(argument)}` is not shown to hold one integer"
        if builtin_spelling(analysis, "int", argument) is None:
            return "`int` is not the builtin where the call is"
        edits.append(ctx.replace(argument, f"int({ctx.code(argument)})"))
    return tuple(edits) if edits else "no call passes an array"


def _python_int(analysis: Analysis, expr: cst.BaseExpression) -> bool:
    value = constant_value(analysis.ctx, expr)
    return isinstance(value, int) and not isinstance(value, bool)


def _one_integer(analysis: Analysis, expr: cst.BaseExpression, depth: int) -> bool:
    """`expr` is surely a 0-d integer array made by one of `_MAKERS`."""
    ctx = analysis.ctx
    if depth > _MAX_DEPTH:
        return False
    if isinstance(expr, cst.Name):
        binding = reaching_binding(ctx, expr)
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        return value is not None and _one_integer(analysis, value, depth + 1)
    if isinstance(expr, cst.Attribute):
        classes = instance_classes(analysis, expr.value)
        stored = [stored_in_init(analysis, cls, expr.attr.value) for cls in classes or ()]
        return bool(stored) and all(s is not None and _one_integer(analysis, s, depth + 1) for s in stored)
    if not isinstance(expr, cst.Call) or ctx.names.qualified_name(expr.func) not in _MAKERS:
        return False
    if any(a.star for a in expr.args):
        return False
    positional = [a.value for a in expr.args if a.keyword is None]
    keywords = {a.keyword.value: a.value for a in expr.args if a.keyword is not None}
    if not positional or len(positional) > 2 or set(keywords) - {"dtype"} or (len(positional) == 2 and keywords):
        return False
    dtype = positional[1] if len(positional) == 2 else keywords.get("dtype")
    return _every_value(analysis, positional[0], _python_int) and (
        dtype is None or _every_value(analysis, dtype, _integer_dtype)
    )


def _every_value(analysis: Analysis, expr: cst.BaseExpression, test) -> bool:
    """`test` holds for `expr`, or, `expr` a parameter, for what every call passes it."""
    if test(analysis, expr):
        return True
    binding = reaching_binding(analysis.ctx, expr) if isinstance(expr, cst.Name) else None
    passed = passed_to(analysis, binding) if isinstance(binding, cst.Param) else None
    return bool(passed) and all(test(analysis, p) for p in passed)


def _integer_dtype(analysis: Analysis, expr: cst.BaseExpression) -> bool:
    return analysis.ctx.names.qualified_name(expr) in _INTEGER_DTYPES

