"""What a transform other than jit does to one argument of a call: static, traced, or mapped.

jit's own static arguments are `jit_wrappers`' business. The transforms here
read their static options by position only (measured, docs/jax405-behaviour.md):
``jax.checkpoint``/``jax.remat`` and ``jax.make_jaxpr`` with ``static_argnums``,
``jax.pmap`` with ``static_broadcasted_argnums``; an argument passed by keyword
is traced (checkpoint) or refused (pmap: "called with only 1 positional
argument") even when its position is listed. ``jax.pmap``'s ``in_axes`` has an
entry for every positional argument, static ones included, and ``None`` broadcasts a
value traced. ``jax.vmap`` maps what ``in_axes`` maps, and every keyword argument along axis 0 whatever in_axes says;
a Python scalar mapped along an axis fails ("its rank should be at least 1").
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

import libcst as cst

from jaxfix.transforms.semantics.constants import NOT_CONSTANT, constant_value, single_binding
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.vocabulary import MAPPING

if TYPE_CHECKING:
    from jaxfix.transforms.semantics.analysis import Analysis
    from jaxfix.transforms.semantics.python_values import PythonValue
    from jaxfix.transforms.semantics.tracing import Route, Wrap

#: Transforms that return a function tracing its arguments, and the option that keeps some static.
STATIC_OPTION = {
    "jax.checkpoint": "static_argnums",
    "jax.remat": "static_argnums",
    "jax.make_jaxpr": "static_argnums",
    "jax.pmap": "static_broadcasted_argnums",
    "jax.vmap": None,
}
#: Static options that count the call's positional arguments only (make_jaxpr's reads keywords too).
POSITIONS_ONLY = frozenset({"jax.checkpoint", "jax.remat", "jax.pmap"})


class Treatment(enum.Enum):
    STATIC = "static"
    TRACED = "traced"
    #: Traced one slice at a time: a Python scalar there fails outright.
    MAPPED = "mapped"
    #: Static by position, but passed by keyword: refused or traced.
    STATIC_BY_POSITION_ONLY = "static by position only"
    UNKNOWN = "unknown"


def option_arg(options: cst.Call | None, keyword: str) -> cst.Arg | None:
    if options is None:
        return None
    return next((a for a in options.args if a.keyword is not None and a.keyword.value == keyword), None)


def static_positions(ctx: ModuleContext, transform: str, options: cst.Call | None) -> frozenset[int] | None:
    """The positions the transform's static option lists (empty: none); None: cannot be read."""
    keyword = STATIC_OPTION.get(transform)
    if keyword is None:
        return frozenset()
    arg = option_arg(options, keyword)
    if arg is None:
        if options is not None and any(a.star for a in options.args):
            return None
        return frozenset()
    value = constant_value(ctx, arg.value)
    if value is None:
        return frozenset()
    items = value if isinstance(value, tuple) else (value,)
    if not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in items):
        return None
    return frozenset(items)  # type: ignore[arg-type]


def in_axes(ctx: ModuleContext, options: cst.Call | None) -> object:
    """vmap's in_axes as written (by keyword or right after the function); 0 by default."""
    if options is None:
        return 0
    arg = option_arg(options, "in_axes")
    if arg is None:
        if any(a.star for a in options.args):
            return NOT_CONSTANT
        positional = [a for a in options.args if a.keyword is None]
        arg = positional[1] if len(positional) > 1 else None
    return 0 if arg is None else constant_value(ctx, arg.value)


def treatment(
    ctx: ModuleContext, transform: str, options: cst.Call | None, position: int | None, param_index: int | None
) -> Treatment:
    """How `transform` treats one argument of a call: passed at `position` (None: by keyword) to
    the parameter at `param_index` of the function's signature (None: keyword-only)."""
    if options is not None and any(a.keyword is not None and a.keyword.value == "static_argnames" for a in options.args):
        return Treatment.UNKNOWN
    if transform == "jax.vmap":
        if position is None:
            return Treatment.MAPPED
        return _axis_treatment(in_axes(ctx, options), position, unmapped=Treatment.STATIC)
    statics = static_positions(ctx, transform, options)
    if statics is None:
        return Treatment.UNKNOWN
    if position is not None and position in statics:
        return Treatment.STATIC
    if position is None and param_index is not None and param_index in statics:
        # make_jaxpr reads static_argnums against the signature (keyword calls too); the others do not.
        return Treatment.STATIC_BY_POSITION_ONLY if transform in POSITIONS_ONLY else Treatment.STATIC
    if transform == "jax.pmap" and position is not None:
        return _pmap_in_axes(ctx, options, position)
    return Treatment.MAPPED if transform in MAPPING else Treatment.TRACED


def _pmap_in_axes(ctx: ModuleContext, options: cst.Call | None, position: int) -> Treatment:
    """pmap's ``in_axes`` (keyword only) has an entry for every positional argument, the static ones
    included; ``None`` broadcasts the value, traced (docs/jax405-behaviour.md)."""
    arg = option_arg(options, "in_axes")
    if arg is None:
        return Treatment.UNKNOWN if options is not None and any(a.star for a in options.args) else Treatment.MAPPED
    return _axis_treatment(constant_value(ctx, arg.value), position, unmapped=Treatment.TRACED)


def _axis_treatment(axes: object, position: int, *, unmapped: Treatment) -> Treatment:
    """What an ``in_axes`` as written does to the argument at `position`: an int maps it, ``None``
    leaves it `unmapped` (vmap hands the value over as it is, pmap broadcasts it traced)."""
    if isinstance(axes, tuple):
        if position >= len(axes):
            return Treatment.UNKNOWN
        axes = axes[position]
    if axes is None:
        return unmapped
    return Treatment.MAPPED if isinstance(axes, int) and not isinstance(axes, bool) else Treatment.UNKNOWN


def in_axes_text(count: int, unmapped: set[int]) -> str:
    """``in_axes=(0, None)``: one entry per positional argument, ``None`` at the unmapped ones."""
    axes = ", ".join("None" if i in unmapped else "0" for i in range(count))
    return f"in_axes=({axes}{',' if count == 1 else ''})"


def passed_python_value(analysis: Analysis, expr: cst.BaseExpression) -> tuple[object, PythonValue | None]:
    """What a call passes, as JAX405 judges it: (its constant, or NOT_CONSTANT; else the proven Python
    number or function it is, or None)."""
    from jaxfix.transforms.semantics.python_values import PythonValue, ValueKind, python_value

    constant = constant_value(analysis.ctx, expr)
    if constant is not NOT_CONSTANT:
        return constant, None
    value = python_value(analysis, expr)
    if isinstance(value, PythonValue) and value.kind in (ValueKind.NUMBER, ValueKind.CALLABLE):
        return NOT_CONSTANT, value
    return NOT_CONSTANT, None


def is_python_value(analysis: Analysis, expr: cst.BaseExpression) -> bool:
    """`passed_python_value` proves a Python value other than None (None is a pytree with no leaves)."""
    constant, value = passed_python_value(analysis, expr)
    return constant is not None and (constant is not NOT_CONSTANT or value is not None)


def surely_of(analysis: Analysis, fn: FunctionNode, route: Route) -> bool:
    """The route's reference is to `fn` itself, not to another binding of its name; or it sees
    the rebinding of the name that wraps `fn` (``f = jax.checkpoint(f)``), which `tracing` puts
    on the route as a layer only for the uses that run after it."""
    ctx = analysis.ctx
    if not (isinstance(route.ref, cst.Name) and isinstance(fn, cst.FunctionDef)):
        return True
    if single_binding(ctx, route.ref) is fn:
        return True
    layer = analysis.traces.rebinding_layer(fn)
    return layer is not None and any(w.node is layer.node for w in route.wraps)


def python_value_at_every_call(analysis: Analysis, fn: FunctionNode, param: str, via: Wrap) -> bool:
    """`via` (one of these transforms) traces `param`, and every call through it passes a Python
    value there: one bug, JAX405's, whose fix is at those calls (other rules then leave the
    tracer inside the function alone)."""
    from jaxfix.transforms.semantics.broadcast_values import repeated_python_value
    from jaxfix.transforms.semantics.jit_wrappers import function_info
    from jaxfix.transforms.semantics.passed_arguments import call_argument

    if via.name not in STATIC_OPTION:
        return False
    routes = [r for r in analysis.traces.routes(fn) or () if any(w is via for w in r.wraps)]
    if not routes:
        return False
    sig = function_info(analysis.ctx, fn).signature
    for route in routes:
        if route.call is None or route.escapes or route.bound or not surely_of(analysis, fn, route):
            return False
        argument = call_argument(route.call, sig, param, bound=False)
        if not isinstance(argument, cst.BaseExpression):
            return False
        if not is_python_value(analysis, argument) and not (
            via.name == "jax.vmap" and repeated_python_value(analysis, argument) is not None
        ):
            return False  # `jnp.full(xs.shape, degree)` under vmap: JAX405 passes `degree` unmapped
    return True
