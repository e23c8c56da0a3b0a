"""Where a value goes, and whether an array serves there as well as a Python value.

Three repairs turn a Python value computed from a tracer into the array it
came from: JAX309 writes ``jnp.logical_not(t)`` for ``not t``, JAX304 drops
the ``float()`` of ``float(t)`` (and the ``.item()`` of ``t.item()``), JAX310 indexes ``jnp.asarray(table)``. Each
is exact only where the value goes to code that takes an array as readily: a
``jax.*`` call (``lax.cond``'s predicate, ``jnp.where``, ``jnp.minimum``),
arithmetic, element-wise comparisons and array methods (``.sum()``: whose result is followed in turn),
the return of a function only JAX runs (a ``while_loop`` condition, a vmapped
or jitted function, whose caller gets an array anyway) or whose plain calls
are each followed so, a name read only so, a parameter of one of the
module's functions read only so, or a field of a NamedTuple built there that
goes only so. Anything else (``Dropout(deterministic=not
training)``, ``print``, a format string, an ``if``) may want the Python
value, and is named.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.semantics.array_api import ARRAY_METHODS
from jaxfix.transforms.semantics.call_binding import bind_arguments
from jaxfix.transforms.semantics.class_hashing import namedtuple_fields
from jaxfix.transforms.semantics.constants import assigned_value, single_binding
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.reads import parameter_reads, reads
from jaxfix.transforms.semantics.size_arguments import size_argument
from jaxfix.transforms.semantics.tracing import TraceIndex
from jaxfix.transforms.semantics.vocabulary import JIT

#: The conversion whose Python value may go unused by anything but array code.
FLOAT = "builtins.float"

#: Functions of libraries beside JAX that take one argument as a JAX array: (its position, its
#: keyword). Equinox's runtime checks take the condition traced (``eqx.error_if(x, pred, msg)``).
_ARRAY_ARGUMENTS = {"equinox.error_if": (1, "pred"), "equinox.branched_error_if": (1, "pred")}

#: Array methods whose result is an array again, for a jax array as for a NumPy one (not ``item``,
#: ``tolist``: Python values; not ``nonzero``: a tuple).
_ARRAY_RESULTS = ARRAY_METHODS - {"item", "tolist", "nonzero"}

#: How far a value is followed through names, helpers and operators.
_MAX_DEPTH = 6


def unknown_destination(
    ctx: ModuleContext, traces: TraceIndex | None, node: cst.BaseExpression, _depth: int = 0
) -> cst.CSTNode | None:
    """The first place the value of `node` goes that may want a Python value; None when every
    place it goes takes an array as well (see the module docstring)."""
    if _depth > _MAX_DEPTH:
        return node
    parent = ctx.parent(node)
    # Operators climb the expression (bounded by its size): only names, calls and returns count as depth.
    if isinstance(parent, cst.BinaryOperation) or (
        isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, (cst.Minus, cst.Plus, cst.BitInvert))
    ):
        return unknown_destination(ctx, traces, parent, _depth)
    if isinstance(parent, cst.ComparisonTarget):
        comparison = ctx.parent(parent)
        if isinstance(comparison, cst.Comparison) and _elementwise(comparison):
            return unknown_destination(ctx, traces, comparison, _depth)
        return comparison
    if isinstance(parent, cst.Comparison) and parent.left is node and _elementwise(parent):
        return unknown_destination(ctx, traces, parent, _depth)
    if isinstance(parent, cst.Arg) and parent.value is node:
        return _argument(ctx, traces, parent, _depth)
    if isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value in _ARRAY_RESULTS:
        call = ctx.parent(parent)
        if isinstance(call, cst.Call) and call.func is parent:
            return unknown_destination(ctx, traces, call, _depth)  # `(weights * x).sum()`: an array of an array
        return parent
    if isinstance(parent, cst.AugAssign) and parent.target is node and isinstance(node, cst.Name):
        return None  # `total_variance += v`: arithmetic stored back in the name, whose reads are each followed
    if isinstance(parent, cst.Element) and isinstance(ctx.parent(parent), cst.Tuple):
        packed = ctx.parent(parent)
        if isinstance(ctx.parent(packed), cst.Return):
            position = next(i for i, e in enumerate(packed.elements) if e is parent)  # type: ignore[attr-defined]
            return _returned(ctx, traces, ctx.parent(packed), position, _depth)
        return parent
    if isinstance(parent, (cst.Return, cst.Lambda)):
        return _returned(ctx, traces, parent, None, _depth)
    if isinstance(parent, cst.DictElement) and parent.value is node and isinstance(ctx.parent(parent), cst.Dict):
        return _dict_destination(ctx, traces, ctx.parent(parent), _depth)  # type: ignore[arg-type]
    if isinstance(parent, (cst.Assign, cst.AnnAssign)) and parent.value is node:
        targets = [t.target for t in parent.targets] if isinstance(parent, cst.Assign) else [parent.target]
        if len(targets) == 1 and isinstance(targets[0], cst.Subscript) and isinstance(targets[0].value, cst.Name):
            return _stored(ctx, traces, parent, targets[0].value, _depth)
        if len(targets) == 1 and isinstance(targets[0], cst.Name):
            # `step = min(decay_steps, step)`: the name's reads inside the value are what it held before
            later = [r for r in reads(ctx, targets[0]) if not any(a is node for a in ctx.ancestors(r))]
            return _read_so(ctx, traces, later, targets[0], _depth)
    return parent


def _returned(
    ctx: ModuleContext, traces: TraceIndex | None, returned: cst.Return | cst.Lambda, position: int | None, depth: int
) -> cst.CSTNode | None:
    """A value a function returns (`position`: its place in a returned tuple): where each call of the
    function sends it. A tuple's element goes where the call's result is unpacked to that place
    (``state, reward, done = step_agent(...)``, gymnax#74)."""
    fn = returned if isinstance(returned, cst.Lambda) else ctx.enclosing_function(returned)
    routes = traces.routes(fn) if traces is not None and fn is not None else None
    if not routes or any(route.escapes or route.uncertain for route in routes):
        return returned
    for route in routes:
        if route.wraps:
            continue  # a layer of JAX (jit, vmap, a primitive) between: its caller gets an array
        if route.call is None:
            return returned
        if position is None:
            found = unknown_destination(ctx, traces, route.call, depth + 1)
        else:
            target = _unpacked_to(ctx, route.call, position)
            if target is None:
                return route.call
            found = _read_so(ctx, traces, reads(ctx, target), target, depth)
        if found is not None:
            return found
    return None


def _dict_destination(
    ctx: ModuleContext, traces: TraceIndex | None, holder: cst.BaseExpression, depth: int
) -> cst.CSTNode | None:
    """A dict that holds the value (``return {"true": relu(x - y)}``): the value goes where an item
    read of the dict goes, ``d[key]`` of any key (it may be any item). The dict is followed as a
    value: returned (to each call), bound to a name (each read), nested in another dict display.
    Anything else done with it (passed on, iterated, unpacked with ``**``, a method called) may
    read the value, and is named."""
    if depth > _MAX_DEPTH:
        return holder
    parent = ctx.parent(holder)
    if isinstance(parent, cst.Subscript) and parent.value is holder:
        if isinstance(ctx.parent(parent), cst.AssignTarget):
            return None  # `d[k] = v` stores into the dict: it reads no item
        outer = ctx.parent(parent)
        if isinstance(outer, cst.Subscript) and outer.value is parent:
            return _dict_destination(ctx, traces, parent, depth + 1)  # `d["true"][":number"]`: a nested dict
        return unknown_destination(ctx, traces, parent, depth + 1)
    if isinstance(parent, cst.DictElement) and parent.value is holder and isinstance(ctx.parent(parent), cst.Dict):
        return _dict_destination(ctx, traces, ctx.parent(parent), depth + 1)  # type: ignore[arg-type]
    if isinstance(parent, cst.Return):
        fn = ctx.enclosing_function(parent)
        routes = traces.routes(fn) if traces is not None and fn is not None else None
        if not routes or any(route.escapes or route.uncertain for route in routes):
            return parent
        for route in routes:
            if route.wraps:
                continue  # through jit, vmap, grad: the caller gets a dict of arrays
            if route.call is None:
                return parent
            found = _dict_destination(ctx, traces, route.call, depth + 1)
            if found is not None:
                return found
        return None
    if isinstance(parent, cst.Assign) and parent.value is holder and len(parent.targets) == 1:
        target = parent.targets[0].target
        if not isinstance(target, cst.Name):
            return parent
        for read in reads(ctx, target):
            if read is not target and isinstance(read, cst.BaseExpression):
                found = _dict_destination(ctx, traces, read, depth + 1)
                if found is not None:
                    return found
        return None
    return parent


def _stored(
    ctx: ModuleContext, traces: TraceIndex | None, after: cst.CSTNode, holder: cst.Name, depth: int
) -> cst.CSTNode | None:
    """``sample[f"ln_bf_{ii}"] = value`` (gwpopulation's extra statistics): the value goes where the
    dict goes from then on. Each read of the name that may come after `after` (below it, or in a
    loop around it) is another store into it, or a ``return`` of it followed as a returned value;
    anything else (``sample.copy()``, a call given the dict) may read the value, and is named. The
    dict is bound there to a dict display, or it is a parameter, and then each caller's dict is read
    so after the call in turn (a jit between hands over a dict it builds, which no caller holds)."""
    if depth > _MAX_DEPTH:
        return after
    fn = ctx.enclosing_function(after)
    end = ctx.end(after)
    loops = [a for a in ctx.ancestors_within(after, fn) if isinstance(a, (cst.For, cst.While))]
    for read in reads(ctx, holder):
        if read is holder:
            continue
        later = ctx.start(read) >= end or any(any(a is loop for a in ctx.ancestors(read)) for loop in loops)
        if not later:
            continue
        parent = ctx.parent(read)
        if isinstance(parent, cst.Subscript) and parent.value is read and isinstance(ctx.parent(parent), cst.AssignTarget):
            continue  # another store into it
        if isinstance(parent, cst.Return) and ctx.enclosing_function(read) is fn:
            found = _returned(ctx, traces, parent, None, depth + 1)
            if found is not None:
                return found
            continue
        return read
    binding = single_binding(ctx, holder)
    if isinstance(binding, cst.Name) and isinstance(assigned_value(ctx, binding), (cst.Dict, cst.DictComp)):
        return None
    return _callers_dicts(ctx, traces, after, binding, depth)


def _callers_dicts(
    ctx: ModuleContext, traces: TraceIndex | None, after: cst.CSTNode, binding: cst.CSTNode | None, depth: int
) -> cst.CSTNode | None:
    """The dict a parameter names is each caller's: the first place one of them may read the value
    after its call; None when every call is through a jit (a dict of its own making) or the caller's
    dict goes only where arrays serve from then on."""
    fn = ctx.enclosing_function(binding) if isinstance(binding, cst.Param) else None
    routes = traces.routes(fn) if traces is not None and fn is not None else None
    if not routes or not isinstance(binding, cst.Param):
        return after
    sig = function_info(ctx, fn).signature  # type: ignore[arg-type]
    for route in routes:
        if route.escapes or route.uncertain:
            return after
        if any(w.name == JIT for w in route.wraps) and route.partial_argument(sig, binding.name.value) is None:
            continue  # jit hands the function a dict it built from the leaves
        argument = route.argument(sig, binding.name.value)
        if route.wraps or route.call is None or not isinstance(argument, cst.Name):
            return after
        found = _stored(ctx, traces, ctx.statement_of(route.call), argument, depth + 1)
        if found is not None:
            return found
    return None


def _unpacked_to(ctx: ModuleContext, call: cst.Call, position: int) -> cst.Name | None:
    """The name ``a, b, c = call`` binds at `position` (no starred target), or None."""
    statement = ctx.parent(call)
    if not isinstance(statement, cst.Assign) or statement.value is not call or len(statement.targets) != 1:
        return None
    target = statement.targets[0].target
    if not isinstance(target, (cst.Tuple, cst.List)) or any(isinstance(e, cst.StarredElement) for e in target.elements):
        return None
    if len(target.elements) <= position:
        return None
    name = target.elements[position].value
    return name if isinstance(name, cst.Name) else None


def needless_float(ctx: ModuleContext, traces: TraceIndex | None, node: cst.CSTNode) -> bool:
    """``float(x)`` with one plain argument, whose Python float only goes where an array serves:
    the conversion asks nothing any code needs (JAX304 drops it; it is no concrete need)."""
    return (
        isinstance(node, cst.Call)
        and ctx.names.qualified_name(node.func) == FLOAT
        and len(node.args) == 1
        and not node.args[0].star
        and node.args[0].keyword is None
        and unknown_destination(ctx, traces, node) is None
    )


def needless_item(ctx: ModuleContext, traces: TraceIndex | None, node: cst.CSTNode) -> bool:
    """``x.item()`` whose Python number only goes where an array serves (a value a jitted
    function returns, packed in a NamedTuple: netket's ``Stats(mean.item(), ...)``, jax#8962)."""
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "item"
        and not node.args
        and unknown_destination(ctx, traces, node) is None
    )


#: Python's ``min``/``max`` of two values, and the jax.numpy function that picks the same one.
MINMAX = {"builtins.min": "jax.numpy.minimum", "builtins.max": "jax.numpy.maximum"}


def minmax_as_array(ctx: ModuleContext, traces: TraceIndex | None, node: cst.CSTNode) -> str | None:
    """``min(a, b)`` (or ``max``) of two plain arguments whose result only goes where an array
    serves: the qualified name of the jax.numpy function that computes it element-wise without
    asking Python to compare (scenic's ``min(decay_steps, step)`` on a traced step); else None."""
    if not isinstance(node, cst.Call):
        return None
    twin = MINMAX.get(ctx.names.qualified_name(node.func) or "")
    if twin is None or len(node.args) != 2 or any(a.keyword is not None or a.star for a in node.args):
        return None
    return twin if unknown_destination(ctx, traces, node) is None else None


def _elementwise(comparison: cst.Comparison) -> bool:
    """A single comparison jnp computes element-wise (``is``/``in`` are Python's own)."""
    return len(comparison.comparisons) == 1 and not isinstance(
        comparison.comparisons[0].operator, (cst.In, cst.NotIn, cst.Is, cst.IsNot)
    )


def _argument(ctx: ModuleContext, traces: TraceIndex | None, arg: cst.Arg, depth: int) -> cst.CSTNode | None:
    """An argument: a ``jax.*`` call takes arrays; a function of the module, as its parameter
    reads it."""
    call = ctx.parent(arg)
    if not isinstance(call, cst.Call) or arg.star:
        return call
    qualified = ctx.names.qualified_name(call.func)
    if qualified is not None and qualified.startswith("jax.") and not qualified.startswith("jax.debug."):
        # but a size (``lax.scan(..., length=n)``, ``jnp.zeros(n)``) it needs concrete, not an array
        return call if size_argument(ctx, call, arg) is not None else None
    if any(a.star for a in call.args):
        return call
    if qualified == FLOAT and len(call.args) == 1 and arg.keyword is None:
        # `float(total_variance)` of a value some `float()` gave: itself needless where its own
        # value goes only where arrays serve, and dropped with it (gwpopulation's statistics)
        return unknown_destination(ctx, traces, call, depth + 1)
    if qualified in _ARRAY_ARGUMENTS:
        position, keyword = _ARRAY_ARGUMENTS[qualified]
        if arg.keyword is not None and arg.keyword.value == keyword:
            return None
        if arg.keyword is None and [a for a in call.args if a.keyword is None].index(arg) == position:
            return None
        return call
    if _namedtuple_built(ctx, call):
        return unknown_destination(ctx, traces, call, depth + 1)  # a field: where the tuple goes
    slot = (bind_arguments(ctx, call) or {}).get(arg)
    if slot is None or slot.jitted or slot.target.function.opaque or slot.caught_by_star:
        return call
    return _read_so(ctx, traces, parameter_reads(ctx, slot.target.function.node, slot.param), None, depth)


def _namedtuple_built(ctx: ModuleContext, call: cst.Call) -> bool:
    """``Stats(...)`` of a ``typing.NamedTuple`` class of the module: a tuple holding its arguments."""
    cls = single_binding(ctx, call.func) if isinstance(call.func, cst.Name) else None
    return isinstance(cls, cst.ClassDef) and namedtuple_fields(ctx, cls) is not None


def _read_so(
    ctx: ModuleContext, traces: TraceIndex | None, uses: list[cst.CSTNode], target: cst.Name | None, depth: int
) -> cst.CSTNode | None:
    """Every read of a name takes an array (the binding itself is not a read)."""
    for use in uses:
        if use is target:
            continue
        if not isinstance(use, cst.BaseExpression):
            return use
        found = unknown_destination(ctx, traces, use, depth + 1)
        if found is not None:
            return found
    return None
