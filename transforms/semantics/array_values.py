"""Is a value certainly an array (never hashable), and why: for every rule that must not hash one.

JAX403 reports an array in a static slot; JAX401, JAX402 and JAX404 must
know an argument is an array before they advise making it static. One
answer for all of them: a call of a jax.numpy/jax.random/jax.lax/jax.nn
function (not the metadata and dtype ones, docs/jax4xx-behaviour.md C), a
NumPy array constructor, a slice of or arithmetic on an array, or a name
bound once to one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxfix.transforms.semantics.array_api import METADATA_CALLS, metadata_call
from jaxfix.transforms.semantics.constants import binding_value

if TYPE_CHECKING:
    from jaxfix.transforms.semantics.analysis import Analysis

#: NumPy functions that build an ndarray (NumPy scalars such as ``np.float32(2.0)`` hash fine).
NUMPY_ARRAYS = frozenset(
    {"array", "asarray", "zeros", "ones", "empty", "full", "arange", "linspace", "eye", "identity", "stack",
     "concatenate", "zeros_like", "ones_like", "full_like", "load"}
)
#: jax.numpy names that return something hashable (dtypes, metadata), not an array.
JAX_NOT_ARRAYS = frozenset(METADATA_CALLS)
JAX_ARRAY_MAKERS = ("jax.numpy.", "jax.random.", "jax.lax.", "jax.nn.")
ARRAY_ANNOTATIONS = frozenset({"jax.Array", "jax.numpy.ndarray", "numpy.ndarray", "chex.Array", "jaxtyping.Array"})


def made_array(qualified: str) -> str | None:
    """What a call of the function named `qualified` returns, when that is an array:
    "an array" (jax), "a NumPy array", else None. Shared by `array_origin` and JAX403's screen."""
    module, _, name = qualified.rpartition(".")
    if qualified.startswith(JAX_ARRAY_MAKERS) and name not in JAX_NOT_ARRAYS and metadata_call(qualified) is None:
        return "an array"
    if module == "numpy.random" or (module == "numpy" and name in NUMPY_ARRAYS):
        return "a NumPy array"
    return None


def array_annotation(qualified: str) -> bool:
    """An annotation (or a subscripted annotation's head) named `qualified` says "array"."""
    return qualified in ARRAY_ANNOTATIONS or qualified.startswith("jaxtyping.")


def array_origin(analysis: Analysis, expr: cst.BaseExpression, depth: int = 0) -> str | None:
    """Why `expr` is certainly an array ("`jnp.array(...)` returns an array"), or None."""
    ctx = analysis.ctx
    if depth > 8:
        return None
    if isinstance(expr, cst.Call):
        made = made_array(ctx.names.qualified_name(expr.func) or "")
        return f"`{ctx.code(expr.func)}(...)` returns {made}" if made else None
    if isinstance(expr, cst.Subscript):
        return array_origin(analysis, expr.value, depth + 1)
    if isinstance(expr, cst.BinaryOperation):
        return array_origin(analysis, expr.left, depth + 1) or array_origin(analysis, expr.right, depth + 1)
    if isinstance(expr, cst.Name):
        value = binding_value(ctx, expr)
        if value is not None:
            inner = array_origin(analysis, value, depth + 1)
            return f"`{expr.value}` is bound to an array: {inner}" if inner else None
    return None
