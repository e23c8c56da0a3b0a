"""Arrays JAX computes inside staged code: tracers even when every operand is a constant.

`traced_values` follows a tracer from where it enters (a traced parameter).
Under ``jit`` and the other staging transforms there is a second source: every
jax.numpy call, and every index or method of a jax array, is recorded into the
program rather than run, so ``jnp.arange(3)`` or ``weights[0]`` of a constant
array is a tracer there (docs/jax4xx-behaviour.md, B1; under vmap or grad
alone, or eagerly, the same call gives a concrete array). NumPy handed one
fails as it fails on any tracer (tinygp#85: ``np.append(x[0], x[:-1])`` inside
a jitted method, of an array the instance holds).

Only where the code surely runs staged (`staged.always_staged`) and not in an
``ensure_compile_time_eval`` block.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_api import ARRAY_METHODS
from jaxfix.transforms.semantics.array_values import made_array
from jaxfix.transforms.semantics.constants import assigned_value, dominating_binding, single_binding
from jaxfix.transforms.semantics.staged import always_staged, in_eager_block
from jaxfix.transforms.semantics.traced_values import function_name


def staged_tracer(analysis: Analysis, expr: cst.BaseExpression, _depth: int = 0) -> str | None:
    """Why `expr` is a tracer JAX stages out where it is written; None if that is not shown."""
    if _depth > 6:
        return None
    ctx = analysis.ctx
    if isinstance(expr, cst.Name):
        binding = single_binding(ctx, expr) or dominating_binding(ctx, expr)
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        return staged_tracer(analysis, value, _depth + 1) if value is not None else None
    made = _made_by_jax(analysis, expr)
    if made is None:
        return None
    fn = ctx.enclosing_function(expr)
    if fn is None or in_eager_block(ctx, expr) or not always_staged(analysis, fn):
        return None
    return f"{made}, computed while `{function_name(fn)}` is staged (jit and the lax primitives record every array operation: a tracer, even of constants)"


def _made_by_jax(analysis: Analysis, expr: cst.BaseExpression) -> str | None:
    """What makes `expr` an array JAX computes: a jax.numpy/random/lax call, or an index or an
    array method of a jax array."""
    ctx = analysis.ctx
    if isinstance(expr, cst.Call):
        qualified = ctx.names.qualified_name(expr.func) or ""
        if made_array(qualified) == "an array":
            return f"`{ctx.code(expr.func)}(...)` is computed by JAX"
        func = expr.func
        if not qualified and isinstance(func, cst.Attribute) and func.attr.value in ARRAY_METHODS:
            if func.attr.value not in ("item", "tolist") and analysis.traced.is_array(func.value):
                return f"`.{func.attr.value}()` of the jax array `{ctx.code(func.value)}`"
        return None
    if isinstance(expr, cst.Subscript) and analysis.traced.is_array(expr.value):
        return f"`{ctx.code(expr)}` indexes the jax array `{ctx.code(expr.value)}`"
    return None
