"""JAX302 for a library function jitted at its call: ``jit(one_hot)(labels, 5)``, or by a name.

A jnp, nn or random function that takes a size (`sinks.SIZE_ARGUMENTS`: ``one_hot``'s
``num_classes``, ``zeros``' shape) needs it as a Python value, and jit traces every argument it is
not told is static, so ``jax.jit(jax.nn.one_hot)(x, 5)`` fails where ``one_hot(x, 5)`` works
(``TypeError``/``ConcretizationTypeError`` inside the library). When the jit is written at the
call and takes the function alone, that call is the only one through it: the size's slot becomes
static there (``static_argnums=1``; ``static_argnames=("num_classes",)`` when passed by keyword),
proven when the call passes a hashable Python value (an int, or a tuple of ints). A size passed
anything else is left alone: the analysis of user functions (the rest of JAX302) does not see
into the library, and a guess would be a wrong fix.

A jit assigned to a name (``a_fun = jax.jit(jnp.linalg.norm)``) whose every use is a call is
read the same way over all its calls (jax#21730: ``a_fun(x, ord=1)``): the options become static
at the jit when every call passes each one as a hashable Python value. ``jax.make_jaxpr`` traces
alike and takes ``static_argnums`` (not names): ``jax.make_jaxpr(jax.lax.integer_pow)(x, 4)``
gains ``static_argnums=1`` (jax#13838).
"""

from __future__ import annotations

import ast

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Edit, Finding
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.gate.screen import Facts, qualified_spellings
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin
from jaxfix.transforms.semantics.constants import NOT_CONSTANT, constant_value, single_binding
from jaxfix.transforms.semantics.reads import reads
from jaxfix.transforms.semantics.size_arguments import SEGMENT_REDUCTIONS, SIZE_ARGUMENTS, VALUE_SIZED
from jaxfix.transforms.semantics.staged import runs_staged
from jaxfix.transforms.semantics.vocabulary import JIT

#: The library functions this applies to, with how many leading positional parameters a call may
#: fill: the sizes and the array data only. A later parameter (a dtype, an axis, ``endpoint``) would
#: need to be static too, and a keyword argument may be one: a call passing either is left alone.
#: Each row was run with real JAX, jitted this way (docs/jax302-behaviour.md, E); each is a
#: `SIZE_ARGUMENTS` row with its positions listed, or a reduction whose axis is its second
#: argument (`AXIS_SLOT`; a test holds them to it).
LEADING: dict[str, int] = {
    "jax.nn.one_hot": 2,
    "jax.numpy.zeros": 1,
    "jax.numpy.ones": 1,
    "jax.numpy.empty": 1,
    "jax.numpy.full": 2,
    "jax.numpy.reshape": 2,
    "jax.numpy.broadcast_to": 2,
    "jax.numpy.tile": 2,
    "jax.numpy.linspace": 3,
    "jax.numpy.fft.fft": 2,
    "jax.numpy.fft.ifft": 2,
    "jax.numpy.fft.rfft": 2,
    "jax.numpy.fft.irfft": 2,
    "jax.random.normal": 2,
    "jax.random.uniform": 2,
    "jax.random.randint": 4,
    "jax.random.bernoulli": 3,
    "jax.random.split": 2,
    "jax.random.poisson": 3,
    "jax.random.gamma": 3,
    "jax.lax.integer_pow": 2,
    # Reductions and axis functions (array, axis): the axis must be static (jax#4412).
    **{f"jax.numpy.{name}": 2 for name in (
        "sum", "mean", "max", "min", "prod", "argmax", "argmin", "cumsum", "cumprod", "std", "var", "any",
        "all", "squeeze", "expand_dims", "flip", "sort", "argsort", "median", "nansum", "ptp", "count_nonzero",
    )},
}

#: The slot of those reductions' axis, as `SIZE_ARGUMENTS` gives a size's: (what, positions, keywords).
AXIS_SLOT = ("axis", (1,), ("axis",))

#: Functions whose options choose the algorithm and are static on the library's own inner jit
#: (a traced one fails to hash: "Non-hashable static arguments", jax#21730): every option is
#: one, and any hashable Python value serves (an int, a float, ``jnp.inf``, ``"fro"``, None).
OPTION_SLOTS: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "jax.numpy.linalg.norm": ("options", (1, 2, 3), ("ord", "axis", "keepdims")),
    "jax.lax.integer_pow": ("exponent", (1,), ("y",)),
}
LEADING.update({name: 1 + len(positions) for name, (_, positions, _) in OPTION_SLOTS.items()})

#: Options that must be Python ints (``integer_pow``'s exponent), not any hashable value.
_INT_OPTIONS = frozenset({"jax.lax.integer_pow"})
#: ``jax.make_jaxpr`` traces like jit and takes ``static_argnums`` (no names; docs/jax302-behaviour.md, E).
MAKE_JAXPR = "jax.make_jaxpr"

#: Constants a module reads from a library: Python floats.
_LIBRARY_FLOATS = {"jax.numpy.inf": float("inf"), "numpy.inf": float("inf"), "math.inf": float("inf")}


def slot(qualified: str) -> tuple[str, tuple[int, ...] | str, tuple[str, ...]]:
    """Where `qualified` takes what must be static: its options, its size (`SIZE_ARGUMENTS`)
    or its axis."""
    return OPTION_SLOTS.get(qualified) or SIZE_ARGUMENTS.get(qualified, AXIS_SLOT)


def findings(analysis: Analysis) -> list[Finding]:
    ctx = analysis.ctx
    out: list[Finding] = []
    for call in ctx.calls:
        jit = call.func
        if isinstance(jit, cst.Call) and (found := _static_at(ctx, jit, [call]) or _size_from_data(analysis, jit, [call])):
            out.append(found)
    for node in ctx.nodes_of(cst.Assign):
        # `a_fun = jax.jit(jnp.linalg.norm)`: every call of the name goes through that jit.
        if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
            continue
        if not isinstance(node.value, cst.Call):
            continue
        calls = _only_calls(ctx, node.targets[0].target)
        if calls and (found := _static_at(ctx, node.value, calls) or _size_from_data(analysis, node.value, calls)):
            out.append(found)
    return out


def _size_from_data(analysis: Analysis, jit: cst.Call, calls: list[cst.Call]) -> Finding | None:
    """``jax.jit(jax.ops.segment_sum)(data, ids)`` leaves ``num_segments`` to the library, which
    computes ``np.max(ids) + 1`` and needs it concrete; jit has traced the ids (jax#6350). Where
    every call runs eagerly and passes the ids as a name bound to an array, the call computes that
    same count in Python and passes it, static."""
    ctx = analysis.ctx
    if ctx.names.qualified_name(jit.func) != JIT or len(jit.args) != 1 or jit.args[0].keyword is not None or jit.args[0].star:
        return None
    function = jit.args[0].value
    qualified = ctx.names.qualified_name(function) or ""
    if qualified not in SEGMENT_REDUCTIONS:
        return None
    position, keyword, _ = VALUE_SIZED[qualified]  # the ids, and the count computed from them
    edits: list[Edit] = []
    for call in calls:
        if any(a.star or a.keyword is not None for a in call.args) or len(call.args) != position + 1:
            return None  # the size given, or another option: not this case
        ids = call.args[position].value
        if not isinstance(ids, cst.Name) or array_origin(analysis, ids) is None:
            return None
        if runs_staged(analysis, ctx.enclosing_function(call)):
            return None  # the ids are tracers there too
        numpy_max = planner(analysis).spell_aliased("numpy.max", call, "np")
        if numpy_max is None:
            return None
        edits.append(Edit(ctx.end(call.args[-1].value), ctx.end(call.args[-1].value), f", {keyword}=int({numpy_max.text}({ids.value})) + 1"))
        if numpy_max.edit is not None:
            edits.append(numpy_max.edit)
    added = f', static_argnames=("{keyword}",)'
    edits.append(Edit(ctx.end(function), ctx.end(function), added))
    shown = ctx.code(function)
    return ctx.finding(
        "JAX302",
        jit,
        f"`{shown}` computes `{keyword}` from its data when it is left out, which needs the data concrete, but "
        f"`{ctx.code(jit)}` traces every argument; every call runs outside jit with the data an array, so it passes "
        f"the same count, computed in Python (`np.max(ids) + 1`, as the library does), static at this jit",
        tuple(dict.fromkeys(edits)),
        Applicability.SAFE,
        description=f"pass `{keyword}` computed in Python, static",
        notes=("each distinct count compiles once",),
    )


def _only_calls(ctx, target: cst.Name) -> list[cst.Call] | None:
    """The calls of a name bound once, in source order, when every use of it is a call; else None."""
    if single_binding(ctx, target) is not target:
        return None
    calls: list[cst.Call] = []
    for read in reads(ctx, target):
        parent = ctx.parent(read)
        if not isinstance(parent, cst.Call) or parent.func is not read:
            return None
        calls.append(parent)
    return calls


def _static_at(ctx, jit: cst.Call, calls: list[cst.Call]) -> Finding | None:
    """The fix at `jit` (``jax.jit(f)`` of a vetted library function) when every one of `calls`
    through it passes what must be static as a hashable Python value, the same way."""
    staging = ctx.names.qualified_name(jit.func)
    if staging not in (JIT, MAKE_JAXPR) or len(jit.args) != 1 or jit.args[0].keyword is not None or jit.args[0].star:
        return None
    function = jit.args[0].value
    qualified = ctx.names.qualified_name(function) or ""
    if qualified not in LEADING:
        return None
    what, positions, keywords = slot(qualified)
    numbers: set[int] = set()
    names: set[str] = set()
    sizes: list[cst.Arg] = []
    for call in calls:
        if any(a.star for a in call.args):
            return None
        positional = [a for a in call.args if a.keyword is None]
        keyworded = [a for a in call.args if a.keyword is not None]
        if len(positional) > LEADING[qualified] or any(a.keyword.value not in keywords for a in keyworded):  # type: ignore[union-attr]
            return None
        numbers |= {i for i in range(len(positional)) if i in positions}  # type: ignore[operator]
        names |= {a.keyword.value for a in keyworded}  # type: ignore[union-attr]
        sizes += [positional[i] for i in range(len(positional)) if i in positions] + keyworded  # type: ignore[operator]
    if names and staging == MAKE_JAXPR:
        return None  # make_jaxpr counts positions only: a keyword cannot be made static there
    valid = _hashable_option if qualified in OPTION_SLOTS and qualified not in _INT_OPTIONS else _hashable_size
    if not sizes or not all(valid(_value(ctx, a.value)) for a in sizes):
        return None
    options = []
    ordered = sorted(numbers)
    if ordered:
        options.append(f"static_argnums={ordered[0]}" if len(ordered) == 1 else f"static_argnums={tuple(ordered)}")
    if names:
        options.append("static_argnames=(" + ", ".join(f'"{n}"' for n in sorted(names)) + ",)")
    added = ", " + ", ".join(options)
    shown = ctx.code(function)
    passes = ", ".join(dict.fromkeys(f"`{ctx.code(a.value)}`" for a in sizes))
    where = "this call passes" if len(calls) == 1 else f"its {len(calls)} calls pass"
    message = (
        f"`{shown}` needs its {what} as a Python value, but `{ctx.code(jit)}` traces every argument; "
        f"{where} {passes}: make it static at this {'jit' if staging == JIT else 'make_jaxpr'}"
    )
    return ctx.finding(
        "JAX302",
        jit,
        message,
        (Edit(ctx.end(function), ctx.end(function), added),),
        Applicability.SAFE,
        description=f"`{ctx.code(jit.func)}({shown}{added})`",
        notes=("each distinct value compiles once",),
    )


def _value(ctx, expr: cst.BaseExpression) -> object:
    qualified = ctx.names.qualified_name(expr) if isinstance(expr, (cst.Name, cst.Attribute)) else None
    if qualified in _LIBRARY_FLOATS:
        return _LIBRARY_FLOATS[qualified]
    return constant_value(ctx, expr)


def _hashable_option(value: object) -> bool:
    """An option a library function takes as a Python value: a number, a string, None, a bool, or
    a tuple of ints (an axis)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value is not NOT_CONSTANT
    return isinstance(value, tuple) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)


def _hashable_size(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, tuple) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)


def seeds(facts: Facts) -> list[ast.AST]:
    """``jit(f)(...)`` calls and ``g = jit(f)`` assignments whose `f` may be a library function
    with a size argument or options."""
    out: list[ast.AST] = []
    named: set[str] = set()
    for node in facts.nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            if isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords:
                if any(q in LEADING or q in SEGMENT_REDUCTIONS for q in qualified_spellings(facts, value.args[0])):
                    out.append(node)  # `a_fun = jax.jit(jnp.linalg.norm)`: read with its calls
                    named.add(node.targets[0].id)
    for call in facts.calls:
        jit = call.func
        if isinstance(jit, ast.Call) and len(jit.args) == 1 and not jit.keywords:
            if any(q in LEADING or q in SEGMENT_REDUCTIONS for q in qualified_spellings(facts, jit.args[0])):
                out.append(call)
        elif isinstance(jit, ast.Name) and jit.id in named:
            out.append(call)
    return out
