"""A loop index used to pick an item of a Python list the loop carries (jax#2962).

``lax.fori_loop(0, L, body, (list_of_tensors, edge))`` with ``args[0][i]`` in
the body: the carry keeps its structure from step to step, so ``args[0]`` is
the Python list the loop started with (of tracers, under jit), and a Python
list takes only a concrete int as its index, which the traced counter is not
(``TypeError: list indices must be integers or slices``, or
TracerIntegerConversionError). The sinks follower reads only lists written
where they are indexed; this reads the carry back to the loop's initial value.
Reported: the items may differ in shape (jax#2962's chain of matrices), so
stacking them into one array indexed by the counter is a person's choice, as
is unrolling the loop in Python.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.constants import assigned_value, helper_return, reaching_binding, single_binding
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.passed_arguments import call_argument
from jaxfix.transforms.semantics.sinks import Sink
from jaxfix.transforms.semantics.traced_values import carry_init
from jaxfix.transforms.semantics.tracing import Wrap
from jaxfix.transforms.semantics.vocabulary import JIT

#: What a person may choose, for the report.
CARRIED_LIST_OPTIONS = (
    "option: when the items share a shape, stack them into one array before the loop "
    "(`jnp.stack(items)`), which a traced index picks from",
    "option: when the number of steps is a Python int, a Python loop in place of the primitive, which "
    "hands the body its index as a Python int (it unrolls: one trace per step)",
    "option: when the items differ in shape, pad them to a common shape (and mask), or keep the Python loop",
)

#: How many names, parameters and calls a list is followed through.
_MAX_DEPTH = 6


def carried_list_index(analysis: Analysis, read: cst.CSTNode, fn: FunctionNode, via: Wrap) -> Sink | None:
    """`read` (the loop index) is the index of ``carry[k][read]``, where element `k` of the carry
    the primitive `via` starts `fn` with is surely a Python list: the place needing it concrete."""
    ctx = analysis.ctx
    index = ctx.parent(read)
    element = ctx.parent(index) if isinstance(index, cst.Index) and index.value is read else None
    subscript = ctx.parent(element) if isinstance(element, cst.SubscriptElement) else None
    if not isinstance(subscript, cst.Subscript) or len(subscript.slice) != 1:
        return None
    picked = subscript.value
    if not (isinstance(picked, cst.Subscript) and isinstance(picked.value, cst.Name) and len(picked.slice) == 1):
        return None
    position = picked.slice[0].slice
    if not (isinstance(position, cst.Index) and isinstance(position.value, cst.Integer)):
        return None
    carry = reaching_binding(ctx, picked.value)
    if not isinstance(carry, cst.Param) or ctx.enclosing_function(carry) is not fn:
        return None
    route = next((r for r in analysis.traces.routes(fn) or () if any(w is via for w in r.wraps)), None)
    initial = carry_init(ctx, route, function_info(ctx, fn).signature, carry.name.value) if route is not None else None
    elements = tuple_elements(ctx, initial) if initial is not None else None
    k = int(position.value.value)
    if elements is None or not -len(elements) <= k < len(elements) or not _surely_list(analysis, elements[k], 0):
        return None
    return Sink(subscript, f"`{ctx.code(picked)}` is the Python list the loop carries, which needs a concrete int as its index")


def tuple_elements(ctx: ModuleContext, value: cst.BaseExpression, depth: int = 0) -> list[cst.BaseExpression] | None:
    """The elements of a tuple display, or of the one a name is bound to or a helper returns."""
    if isinstance(value, cst.Name) and depth < 4:
        binding = single_binding(ctx, value)
        bound = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        return tuple_elements(ctx, bound, depth + 1) if bound is not None else None
    if isinstance(value, (cst.Tuple, cst.List)) and all(isinstance(e, cst.Element) for e in value.elements):
        return [e.value for e in value.elements]
    returned = helper_return(ctx, value) if isinstance(value, cst.Call) and depth < 4 else None
    return tuple_elements(ctx, returned, depth + 1) if returned is not None else None  # `init = make_init()`


def _surely_list(analysis: Analysis, expr: cst.BaseExpression, depth: int) -> bool:
    """A list display or comprehension; a name bound to one where it is read; a parameter every call
    (plain, or through a jit, which hands a list on as a list) passes one."""
    ctx = analysis.ctx
    if depth > _MAX_DEPTH:
        return False
    if isinstance(expr, (cst.List, cst.ListComp)):
        return True
    if not isinstance(expr, cst.Name):
        return False
    binding = reaching_binding(ctx, expr)
    if isinstance(binding, cst.Name):
        value = assigned_value(ctx, binding)
        return value is not None and _surely_list(analysis, value, depth + 1)
    if not isinstance(binding, cst.Param):
        return False
    owner = ctx.enclosing_function(binding)
    routes = analysis.traces.routes(owner) if owner is not None else None
    if not routes:
        return False
    signature = function_info(ctx, owner).signature  # type: ignore[arg-type]
    for route in routes:
        if route.escapes or route.uncertain or route.call is None or any(w.name != JIT for w in route.wraps):
            return False
        argument = call_argument(route.call, signature, binding.name.value, bound=route.bound, consumed=route.consumed)
        if not isinstance(argument, cst.BaseExpression) or not _surely_list(analysis, argument, depth + 1):
            return False
    return True
