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
  are far below 2**31), given positional arguments only; or ``jnp.array(x)`` of a
  name the module (or an eager function) binds once to a jax array (concrete),
  which ``np.array(x)`` copies, values and dtype;
* every other part is a Python int (`int_values.IntStatic`: literals, array
  metadata such as ``b.shape[0]``, static values), a tuple or list of them (a
  static parameter every call passes one, too), a comprehension of one ``for``
  and no ``if`` whose element is one, a slice of such a value by ints
  (``[:-1]``), or a name whose binding in the function reaches it and is read
  nowhere else (``bounds = jnp.array(sizes)`` then ``jnp.cumsum(bounds)``): that
  binding's value is computed with NumPy too, and no other code sees it;
* the value goes only to places that need it concrete (`sinks.Flow`: nothing
  else reads it, so no code sees a NumPy array where it had a jax Array), and
  what each place takes is made of static values and JAX operations on them
  (`trace_time_eval.unproven_part`: ``lo + jnp.array([i, j])`` with a traced
  ``lo`` stays traced whatever computes the array; ``high + 1`` beside the
  value is another finding's);
* no place is the data of a function whose result's shape depends on it
  (``jnp.nonzero(a)``, jax#5280): it converts a NumPy array with JAX, which
  the trace stages (docs/jax4xx-behaviour.md, H); every other place reads a
  NumPy value concretely;
* NumPy has a name there (`edits.imports` adds ``import numpy as np`` where
  the module has none).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst

from jaxfix.transforms.core.findings import Edit, shorten
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.repairs.trace_time_eval import unproven_part
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.constants import assigned_value, reaching_binding, single_binding
from jaxfix.transforms.semantics.int_values import IntStatic, Kind, counted_comprehension
from jaxfix.transforms.semantics.numpy_twins import delegates
from jaxfix.transforms.semantics.reads import names_read, reads, reads_seeing
from jaxfix.transforms.semantics.sinks import Flow
from jaxfix.transforms.semantics.size_arguments import value_shaped_call
from jaxfix.transforms.semantics.staged import runs_staged

_JNP = "jax.numpy."

#: jax.numpy functions whose NumPy twin gives the same values on Python ints.
INTEGER_EXACT = frozenset(
    {"array", "asarray", "cumsum", "cumprod", "sum", "prod", "diff", "concatenate", "maximum", "minimum", "abs", "max", "min", "arange",
     "reshape", "ravel"}
)


#: jax.numpy functions NumPy has a twin of, taking the same positional arguments, whose values agree
#: to float32's precision: NumPy computes floats in float64 (`computed_with_numpy`'s inexact twin).
FLOAT_TWINS = INTEGER_EXACT | frozenset(
    {"linspace", "logspace", "geomspace", "sqrt", "exp", "log", "sin", "cos", "tan", "floor", "ceil", "mean"}
)


def computed_with_numpy(
    analysis: Analysis,
    call: cst.Call,
    ints: IntStatic,
    flow: Flow,
    needed: Sequence[cst.BaseExpression],
    *,
    exact: bool = True,
    reads_of_it: Callable[[cst.CSTNode], bool] | None = None,
) -> tuple[tuple[Edit, ...], str] | str:
    """(the edits, the rewritten expression) computing `call` with NumPy, so that each of `needed`
    (the values the place takes, made from the call's) is concrete; else why not.

    `exact=False` (gdsfactory's taper, ``ws = jnp.linspace(w1, w2, n)`` read as ``float(ws[i])``)
    also takes the twins of `FLOAT_TWINS` and inputs not proven Python values, none shown to be a
    tracer: every place the value goes needs it concrete, so an input that is one after all fails
    there before the edit as NumPy fails on it after; and floats come out in float64 where
    jax.numpy gave float32: the edit is unsafe.
    `reads_of_it`: the reads of a constant `call` computes (``self.split_idxs``), concrete after the
    edit wherever they are."""
    ctx = analysis.ctx
    if not flow.sinks or flow.blocked is not None:
        return flow.blocked or "its value goes nowhere that needs it concrete"
    shaped = next((s.node for s in flow.sinks if value_shaped_call(ctx, s.node)), None)
    if shaped is not None:  # jax#5280: `jnp.nonzero(a)` converts a NumPy `a` with JAX, staged again
        return f"`{shorten(ctx.code(shaped), 40)}` converts its data with JAX, which the trace stages whatever computes it"
    calls: list[cst.Call] = []
    unproven = _unproven(analysis, call, ints, calls) if exact else _not_twinned(analysis, call, calls)
    if unproven is not None and exact:
        return f"`{ctx.code(unproven)}` is not a Python int or an integer-exact jax.numpy call"
    if unproven is not None:
        return f"`{ctx.code(unproven)}` is traced, or a JAX call NumPy has no twin of here"
    for value in needed:  # `lo + jnp.array([i, j])`: NumPy's twin of a part leaves the whole traced
        # JAX operations on static values elsewhere in it are other findings' (`high + 1` beside `low`)
        mixed = unproven_part(
            analysis, value, ints, lambda n: True, 0,
            lambda n: (not exact and n is call) or (reads_of_it is not None and reads_of_it(n)),
        )
        if mixed is not None:
            return f"the value needed concrete is also made of `{ctx.code(mixed)}`, which is not shown to be static"
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
        data = None if exact else _delegated_data(ctx, inner, name, calls)
        if isinstance(data, str):
            return data
        if data is not None:  # `np.max(np.asarray(data))`: NumPy reads the values, not data's own method
            converted = plan.spell_aliased("numpy.asarray", inner, "np")
            if converted is None:
                return "no name for NumPy is free here"
            code = ctx.code(data)
            edits.append(ctx.replace(data, f"{converted.text}({code})"))
            text = text.replace(f"({code}", f"({converted.text}({code})", 1)
            if converted.edit is not None and converted.edit not in imports:
                imports.append(converted.edit)
    return (*edits, *imports), text


def _delegated_data(ctx, call: cst.Call, name: str, calls: list[cst.Call]) -> cst.BaseExpression | str | None:
    """The argument of a NumPy twin that calls its argument's own method (``np.max(data)`` is
    ``data.max()`` when `data` is no ndarray, `numpy_twins.DELEGATING`): a jax Array there, concrete
    or not, runs ``jnp.max`` again, which the trace stages (docs/jax310-behaviour.md, E), so it is
    handed over as ``np.asarray(data)``. None when the argument is another call turned into NumPy
    (a NumPy value), or a literal; a reason when it holds such a call deeper (the two edits would
    nest)."""
    if not delegates(f"numpy.{name}") or not call.args:
        return None
    data = call.args[0].value
    if any(c is data for c in calls) or isinstance(data, (cst.Integer, cst.Float, cst.List, cst.Tuple)):
        return None
    if any(inner is not call and any(a is data for a in ctx.ancestors(inner)) for inner in calls):
        return f"`{shorten(ctx.code(data), 40)}` mixes NumPy's results with other values, which NumPy's `{name}` may hand back to JAX"
    return data


def _unproven(analysis: Analysis, node: cst.BaseExpression, ints: IntStatic, calls: list[cst.Call]) -> cst.CSTNode | None:
    """The first part of `node` the obligations do not cover; None when all do (`calls` collects the
    jax.numpy calls, outermost first)."""
    ctx = analysis.ctx
    if isinstance(node, cst.Call):
        qualified = ctx.names.qualified_name(node.func) or ""
        if not qualified.startswith(_JNP) or qualified[len(_JNP) :] not in INTEGER_EXACT:
            static = ints.kind(node).kind is Kind.INT or ints.int_sequence(node).kind is Kind.INT
            return None if static else node  # `jnp.shape(x)`: a tuple of Python ints
        if any(a.star or (a.keyword is not None and not _integer_dtype(ctx, qualified, a)) for a in node.args):
            return node
        calls.append(node)
        if qualified[len(_JNP) :] in ("array", "asarray") and _converts_a_module_array(analysis, node):
            return None  # `np.array(action_space_dim)` copies the concrete values, dtype and all
        for arg in node.args:
            if arg.keyword is not None:
                continue  # `dtype=jnp.int32`, as NumPy reads it
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
    if isinstance(node, cst.Subscript) and ints.kind(node).kind is not Kind.INT:
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Slice):
            return node  # an element or an index array: kept to jnp's reading of indices
        bounds = node.slice[0].slice
        bad = next((b for b in (bounds.lower, bounds.upper, bounds.step) if b is not None and ints.kind(b).kind is not Kind.INT), None)
        return bad if bad is not None else _unproven(analysis, node.value, ints, calls)  # `np.cumsum(...)[:-1]`
    if ints.int_sequence(node).kind is Kind.INT:
        return None  # `sizes`, a static parameter every call passes a tuple of ints
    if isinstance(node, cst.Name) and ints.kind(node).kind is not Kind.INT:
        value = _read_once(ctx, node)
        return node if value is None else _unproven(analysis, value, ints, calls)
    return None if ints.kind(node).kind is Kind.INT else node


def _converts_a_module_array(analysis: Analysis, call: cst.Call) -> bool:
    """``jnp.array(action_space_dim)`` with no other argument, of a name bound once, at module level
    (or in the same function, which no trace runs), to a jax array (waymax#37's
    ``jnp.ones(spec.shape, dtype=jnp.int32)``): computed eagerly, so concrete, and NumPy's
    ``np.array`` of it holds the same values in the same dtype."""
    ctx = analysis.ctx
    if len(call.args) != 1 or call.args[0].keyword is not None or not isinstance(call.args[0].value, cst.Name):
        return False
    binding = single_binding(ctx, call.args[0].value)
    if not isinstance(binding, cst.Name):
        return False
    home = ctx.enclosing_function(binding)
    if home is not None and (home is not ctx.enclosing_function(call) or runs_staged(analysis, home)):
        return False  # bound in a function: concrete only where that function runs eagerly (`main()`)
    value = assigned_value(ctx, binding)
    origin = array_origin(analysis, value) if value is not None else None
    return origin is not None and "NumPy" not in origin


#: Integer dtypes NumPy reads as jax.numpy does, by name or as ``jnp.int32`` (a class NumPy takes).
_INTEGER_DTYPES = frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"})


def _integer_dtype(ctx, qualified: str, arg: cst.Arg) -> bool:
    """``dtype=jnp.int32`` (or ``np.int64``, ``"int32"``) given to ``jnp.array``/``jnp.asarray``:
    NumPy's twin makes the same integers with it (tfp's ``tf.shape``: ``jnp.asarray(jnp.shape(x),
    dtype=jnp.int32)``)."""
    if qualified not in (f"{_JNP}array", f"{_JNP}asarray") or arg.keyword is None or arg.keyword.value != "dtype":
        return False
    value = arg.value
    if isinstance(value, cst.SimpleString):
        return value.evaluated_value in _INTEGER_DTYPES
    name = ctx.names.qualified_name(value) or ""
    return name.rpartition(".")[0] in ("jax.numpy", "numpy") and name.rpartition(".")[2] in _INTEGER_DTYPES


def _not_twinned(analysis: Analysis, node: cst.BaseExpression, calls: list[cst.Call]) -> cst.CSTNode | None:
    """The first JAX call in `node` that is not one of `FLOAT_TWINS` given positional arguments only
    (`calls` collects those that are, outermost first); None when every one is."""
    ctx = analysis.ctx
    stack: list[cst.CSTNode] = [node]
    while stack:
        current = stack.pop(0)
        if isinstance(current, (cst.Lambda, cst.FunctionDef)):
            return current
        if isinstance(current, cst.Call):
            qualified = ctx.names.qualified_name(current.func) or ""
            if qualified.startswith(_JNP):
                if qualified[len(_JNP) :] not in FLOAT_TWINS or any(a.keyword is not None or a.star for a in current.args):
                    return current
                calls.append(current)
                stack.extend(a.value for a in current.args)
                continue
            if qualified.startswith(("jax.", "jaxlib.")):
                return current
        if isinstance(current, (cst.Name, cst.Attribute, cst.Subscript)) and analysis.traced.source(current) is not None:
            return current  # a tracer: NumPy fails on it as the place did, and the edit fixes nothing
        root = current
        while isinstance(root, cst.Attribute):
            root = root.value
        if isinstance(root, cst.Name) and _unseen_parameter(analysis, root):
            return current  # made from what a function is handed where no call can be seen: maybe a tracer
        if isinstance(current, (cst.Name, cst.Attribute)):
            continue  # a value as it is (not its parts: `self` of `self.width` is no input)
        stack.extend(current.children)
    return None


def _unseen_parameter(analysis: Analysis, name: cst.Name, depth: int = 0) -> bool:
    """`name` reads a parameter of a function whose uses cannot all be seen (it escapes, or is
    stored where a trace reaches it: jax-md's ``fns.allocate = allocate``), or a local value
    computed from one (``mask = _candidates(R)``): no call shows what it holds, and in staged
    code that may be a tracer, on which NumPy fails as the place did."""
    ctx = analysis.ctx
    binding = reaching_binding(ctx, name)
    if isinstance(binding, cst.Name) and depth < 4:
        value = assigned_value(ctx, binding)
        names = [n for n in names_read(value) if n is not binding] if value is not None else []
        return any(_unseen_parameter(analysis, n, depth + 1) for n in names)
    fn = ctx.enclosing_function(binding) if isinstance(binding, cst.Param) else None
    if fn is None:
        return False
    routes = analysis.traces.routes(fn)
    return routes is None or any(route.escapes for route in routes)


def _read_once(ctx, name: cst.Name) -> cst.BaseExpression | None:
    """The value of the plain ``name = value`` in the same function that reaches `name`, where
    `name` is the binding's only read (``bounds = jnp.array(sizes)`` then ``jnp.cumsum(bounds)``):
    NumPy computing that value too changes what no other code reads; else None."""
    binding = reaching_binding(ctx, name)
    if not isinstance(binding, cst.Name) or ctx.enclosing_function(binding) is not ctx.enclosing_function(name):
        return None
    readers = reads_seeing(ctx, binding)
    if readers != [name] or any(reaching_binding(ctx, r) is None for r in reads(ctx, binding)):  # type: ignore[arg-type]
        return None
    return assigned_value(ctx, binding)
