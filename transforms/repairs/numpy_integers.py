"""Compute with NumPy a jax.numpy expression of Python ints whose value is needed concrete.

Under jit ``split_indices = jnp.cumsum(jnp.array([b.shape[0] for b in
biases[:-1]]))`` is a tracer although every size in it is a Python int, and
``jnp.split(y, split_indices)`` needs it concrete (flax#648). Computing it at
trace time in ``with jax.ensure_compile_time_eval():`` does not serve: the
concrete jax Array it gives holds several values, and ``jnp.split`` reads them
through a JAX operation after the block, which the trace stages again
(docs/jax4xx-behaviour.md, G). NumPy's twin computes the same ints, concrete:
``np.cumsum(np.array([...]))``, the fix the report made.

Proof obligations:

* every call in the expression is a jax.numpy function of `INTEGER_EXACT`
  (on ints NumPy computes the same values: int64 where jnp has int32, and sizes
  are far below 2**31), given positional arguments only;
* every other part is a Python int (`int_values.IntStatic`: literals, array
  metadata such as ``b.shape[0]``, static values), a tuple or list of them, or
  a comprehension of one ``for`` and no ``if`` whose element is one;
* the value goes only to places that need it concrete (`sinks.Flow`: nothing
  else reads it, so no code sees a NumPy array where it had a jax Array);
* NumPy has a name there (`edits.imports` adds ``import numpy as np`` where
  the module has none).
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.int_values import IntStatic, Kind, counted_comprehension
from jaxfix.transforms.semantics.sinks import Flow

_JNP = "jax.numpy."

#: jax.numpy functions whose NumPy twin gives the same values on Python ints.
INTEGER_EXACT = frozenset(
    {"array", "asarray", "cumsum", "cumprod", "sum", "prod", "diff", "concatenate", "maximum", "minimum", "abs", "max", "min", "arange",
     "reshape", "ravel"}
)


def computed_with_numpy(analysis: Analysis, call: cst.Call, ints: IntStatic, flow: Flow) -> tuple[tuple[Edit, ...], str] | str:
    """(the edits, the rewritten expression) computing `call` with NumPy; else why not."""
    ctx = analysis.ctx
    if not flow.sinks or flow.blocked is not None:
        return flow.blocked or "its value goes nowhere that needs it concrete"
    calls: list[cst.Call] = []
    unproven = _unproven(analysis, call, ints, calls)
    if unproven is not None:
        return f"`{ctx.code(unproven)}` is not a Python int or an integer-exact jax.numpy call"
    plan = planner(analysis)
    edits: list[Edit] = []
    imports: list[Edit] = []
    text = ctx.code(call)
    for inner in calls:  # outermost first, so each first occurrence left is the next call's name
        name = (ctx.names.qualified_name(inner.func) or "")[len(_JNP) :]
        spelled = plan.spell_aliased(f"numpy.{name}", inner, "np")
        if spelled is None:
            return "no name for NumPy is free here"
        edits.append(ctx.replace(inner.func, spelled.text))
        text = text.replace(f"{ctx.code(inner.func)}(", f"{spelled.text}(", 1)
        if spelled.edit is not None and spelled.edit not in imports:
            imports.append(spelled.edit)
    return (*edits, *imports), text


def _unproven(analysis: Analysis, node: cst.BaseExpression, ints: IntStatic, calls: list[cst.Call]) -> cst.CSTNode | None:
    """The first part of `node` the obligations do not cover; None when all do (`calls` collects the
    jax.numpy calls, outermost first)."""
    ctx = analysis.ctx
    if isinstance(node, cst.Call):
        qualified = ctx.names.qualified_name(node.func) or ""
        if not qualified.startswith(_JNP) or qualified[len(_JNP) :] not in INTEGER_EXACT:
            return node if ints.kind(node).kind is not Kind.INT else None
        if any(a.keyword is not None or a.star for a in node.args):
            return node
        calls.append(node)
        for arg in node.args:
            found = _unproven(analysis, arg.value, ints, calls)
            if found is not None:
                return found
        return None
    if isinstance(node, (cst.Tuple, cst.List)):
        for element in node.elements:
            if not isinstance(element, cst.Element):
                return element
            found = _unproven(analysis, element.value, ints, calls)
            if found is not None:
                return found
        return None
    if isinstance(node, (cst.ListComp, cst.GeneratorExp)):
        if not counted_comprehension(node):
            return node
        return None if ints.kind(node.elt).kind is Kind.INT else node.elt
    return None if ints.kind(node).kind is Kind.INT else node
