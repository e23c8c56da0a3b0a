"""An array built from one number literal, where the program only ever needs the number.

``build(jnp.asarray(5.0, jnp.float32))`` hands a jitted function an array for a
parameter whose every read converts it to a Python number (``cutoff =
float(cutoff)`` in the helper it reaches). Jit traces the array, and the
conversion fails; static, the array cannot be hashed. The literal itself is
what the program needs: passed as ``5.0``, static, every conversion gives the
same number, when the literal's value is exact in the array's dtype (a float32
holds 5.0 exactly, not 0.1; an int32 holds ints below 2**31) and nothing reads
the parameter any other way (arithmetic would promote dtypes differently with a
Python number than with the array).
"""

from __future__ import annotations

import struct

import libcst as cst

from jaxfix.transforms.semantics.callables import resolve_callable, unjitted_def
from jaxfix.transforms.semantics.constants import constant_value
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.passed_arguments import call_argument
from jaxfix.transforms.semantics.reads import parameter, parameter_reads
from jaxfix.transforms.semantics.sinks import CONVERSIONS

#: Constructors of a 0-d array from a number, and the dtype each gives without one (x64 off).
_CONSTRUCTORS = {
    "jax.numpy.asarray": None,
    "jax.numpy.array": None,
    "jax.numpy.float32": "float32",
    "jax.numpy.int32": "int32",
}
_DTYPES = {"jax.numpy.float32": "float32", "jax.numpy.int32": "int32", "numpy.float32": "float32", "numpy.int32": "int32"}
#: Conversions to a Python number: what they give of the array, they give of the literal
#: (`complex()` left out: not measured).
NUMBER_CONVERSIONS = CONVERSIONS - {"builtins.complex"}


def literal_array(ctx: ModuleContext, expr: cst.BaseExpression) -> str | None:
    """The number literal `expr` builds a 0-d array of, as written, when the array holds it exactly."""
    if not isinstance(expr, cst.Call) or any(a.star for a in expr.args):
        return None
    qualified = ctx.names.qualified_name(expr.func) or ""
    if qualified not in _CONSTRUCTORS:
        return None
    positional = [a.value for a in expr.args if a.keyword is None]
    keywords = {a.keyword.value: a.value for a in expr.args if a.keyword is not None}
    if not positional or len(positional) > 2 or set(keywords) - {"dtype"} or (len(positional) == 2 and keywords):
        return None
    dtype_expr = positional[1] if len(positional) == 2 else keywords.get("dtype")
    literal = positional[0]
    value = constant_value(ctx, literal)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not _number_literal(literal):
        return None
    dtype = _CONSTRUCTORS[qualified]
    if dtype_expr is not None:
        if dtype is not None:
            return None
        dtype = _DTYPES.get(ctx.names.qualified_name(dtype_expr) or "")
        if dtype is None:
            return None
    if dtype is None:
        dtype = "int32" if isinstance(value, int) else "float32"
    if not _exact(value, dtype):
        return None
    return ctx.code(literal)


def _number_literal(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float))


def _exact(value: int | float, dtype: str) -> bool:
    """`value` is held exactly by a `dtype` array."""
    if dtype == "int32":
        return isinstance(value, int) and -(2**31) <= value < 2**31
    try:
        return struct.unpack("f", struct.pack("f", float(value)))[0] == value
    except OverflowError:
        return False


def only_converted(ctx: ModuleContext, fn: FunctionNode, name: str, depth: int = 0) -> bool:
    """Every read of `fn`'s parameter `name` converts it to a Python number (``float(cutoff)``),
    hands it to a plain def of the module whose parameter is only converted, or reads what a
    conversion at the top of the body rebound it to (``cutoff = float(cutoff)``)."""
    param = parameter(fn, name)
    if param is None or depth > 3 or not isinstance(fn, cst.FunctionDef):
        return False
    converted_at = _converted_at(ctx, fn, param)
    if converted_at is False:
        return False
    for read in parameter_reads(ctx, fn, name):
        if converted_at is not None and ctx.start(read) > converted_at:
            continue  # the Python number the top of the body converted it to
        parent = ctx.parent(read)
        arg = parent if isinstance(parent, cst.Arg) else None
        call = ctx.parent(arg) if arg is not None else None
        if not isinstance(call, cst.Call) or arg.star:  # type: ignore[union-attr]
            return False
        if ctx.names.qualified_name(call.func) in NUMBER_CONVERSIONS and len(call.args) == 1:
            continue
        found = unjitted_def(ctx, resolve_callable(ctx, call.func))
        if found is None:
            return False
        callee, bound = found
        signature = function_info(ctx, callee).signature
        target = next((p.name for p in signature.params if call_argument(call, signature, p.name, bound=bound, ctx=ctx) is arg.value), None)  # type: ignore[union-attr]
        if target is None or not only_converted(ctx, callee, target, depth + 1):
            return False
    return True


def _converted_at(ctx: ModuleContext, fn: cst.FunctionDef, param: cst.Param):
    """Where the first of the body's top-level ``name = float(name)`` starts (a read after that
    sees a Python number); None when the body does not bind the parameter's name again; False
    when it binds it any other way."""
    name = param.name.value
    scope = ctx.scope(param.name)
    others = [a.node for a in scope.assignments[name] if not isinstance(a.node, cst.Param)] if scope is not None else []
    if not others:
        return None
    body = fn.body.body if isinstance(fn.body, cst.IndentedBlock) else ()
    ends = []
    for target in others:
        assign = ctx.parent(ctx.parent(target)) if isinstance(ctx.parent(target), cst.AssignTarget) else None
        line = ctx.parent(assign) if isinstance(assign, cst.Assign) else None
        value = assign.value if isinstance(assign, cst.Assign) else None
        if line not in body or len(assign.targets) != 1 or not isinstance(value, cst.Call):  # type: ignore[union-attr]
            return False
        if ctx.names.qualified_name(value.func) not in NUMBER_CONVERSIONS or len(value.args) != 1:
            return False
        inner = value.args[0].value
        if not (isinstance(inner, cst.Name) and inner.value == name):
            return False
        ends.append(ctx.start(line))
    return min(ends)
