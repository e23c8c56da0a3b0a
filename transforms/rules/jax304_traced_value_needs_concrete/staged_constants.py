"""A jax array the program holds as a constant, read inside staged code where a Python value is needed.

``ub = jnp.array([5.0, jnp.inf])`` at module level, handed down to a helper a
jitted function calls, which tests ``np.isfinite(float(ub[i]))`` (pounce#795):
under jit every index of a jax array is recorded into the program, so
``ub[i]`` is a tracer although ``ub`` never changes (`staged_values`), and the
conversion fails. Reported: the array must be read on the host (``np.asarray``
of it before the loop, or the constant built with NumPy), which changes its type
for every other reader, or the test written with jnp.

`eager_constant_reads` takes the other ways such a constant fails (flowjax#132's
shape; docs/jax4xx-behaviour.md, I): ``IDX = jnp.cumsum(jnp.array(SIZES[:-1]))``
at module level, then ``jnp.split(x, IDX)`` in a jitted function (split reads a
vector's entries through a JAX operation, staged), or ``N = jnp.array(4)`` then
``x[: N + 1]`` (the ``+`` is staged). Where the constant is made of Python ints
by integer-exact jax.numpy calls and goes only to such places, NumPy's twin
computes it concretely (`repairs.numpy_integers`, whose obligations hold the
edit); else reported.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from jaxfix.transforms.core.findings import Finding, shorten
from jaxfix.transforms.repairs.numpy_integers import computed_with_numpy
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_values import array_origin, made_array
from jaxfix.transforms.semantics.constants import single_binding
from jaxfix.transforms.semantics.int_values import IntStatic
from jaxfix.transforms.semantics.int_values import Kind as IntKind
from jaxfix.transforms.semantics.sinks import Flow, Follower, Sink, init_field, needed_values
from jaxfix.transforms.semantics.staged import STAGING, always_staged, in_eager_block, runs_staged
from jaxfix.transforms.semantics.staged_values import staged_tracer
from jaxfix.transforms.semantics.traced_values import function_name

#: jax.numpy functions whose result has at least one axis whatever they are given.
_VECTORS = frozenset({"cumsum", "cumprod", "arange", "ravel", "concatenate", "diff", "linspace"})

#: Places that read a vector's entries through a JAX operation: a concrete vector there still fails.
_READ_THROUGH_JAX = frozenset({"jax.numpy.split", "jax.numpy.array_split", "jax.numpy.tile"})


def staged_constant_reads(analysis: Analysis, follower: Follower, seen_sinks: set[int]) -> list[Finding]:
    """One finding per place needing a Python value that an index of a constant jax array reaches."""
    ctx = analysis.ctx
    out: list[Finding] = []
    for sub in sorted(ctx.nodes_of(cst.Subscript), key=ctx.start):
        if not isinstance(sub.value, cst.Name) or analysis.traced.tracer_source(sub) is not None:
            continue  # data jit traces: the first pass's
        reason = staged_tracer(analysis, sub)
        if reason is None:
            continue
        sink = next(iter(follower.follow(sub).sinks), None)
        if sink is None or id(sink.node) in seen_sinks:
            continue
        seen_sinks.add(id(sink.node))
        array = ctx.code(sub.value)
        out.append(
            ctx.finding(
                "JAX304",
                sub,
                f"{reason}, but {sink.reason} (line {ctx.span(sink.node).start.line}); not rewritten: `{shorten(array)}` "
                "never changes, but reading it on the host changes its type for every other reader",
                notes=(
                    f"option: read it on the host where it is needed as Python values: `{array} = np.asarray({array})` "
                    "before the code that converts its entries",
                    "option: build the constant with NumPy (`np.array`) if every reader takes a NumPy array",
                    "option: keep it an array and write the test with jax.numpy (`jnp.where`), which takes tracers",
                ),
            )
        )
    return out


def eager_constant_reads(analysis: Analysis, follower: Follower, ints: IntStatic, seen_sinks: set[int]) -> list[Finding]:
    """One finding per jax array constant (of the module, or of a function for the functions nested
    in it) that fails where staged code needs it concrete (see the module docstring), with NumPy's
    twin as the fix where it is proven. A constant bound to a name (``N = jnp.array(4)``) or a field
    (``self.split_idxs = ...``) first; then one made inside a statement's expression
    (`_nested_constants`: waymax's ``Wrapper(model, bins=128 * jnp.array(dims))``)."""
    ctx = analysis.ctx
    out: list[Finding] = []
    named: set[int] = set()
    for statement in _outer_statements(ctx):
        assign = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
        if not isinstance(assign, cst.Assign) or len(assign.targets) != 1:
            continue
        call = assign.value
        if not isinstance(call, cst.Call) or made_array(ctx.names.qualified_name(call.func) or "") != "an array":
            continue
        target = assign.targets[0].target
        home = ctx.enclosing_function(assign)
        if home is not None and runs_staged(analysis, home):
            continue  # computed while traced: a tracer, the first pass's (or JAX402's)
        if isinstance(target, cst.Name):
            name = target.value
            is_read = _name_read(name)
        elif init_field(ctx, assign) is not None:
            name = ctx.code(target)  # `self.split_idxs`, set once in `__init__` (flowjax#132's bijection)
            is_read = _field_read(target.attr.value)  # type: ignore[attr-defined]
        else:
            continue
        named.add(id(call))
        found = _constant_finding(analysis, follower, ints, seen_sinks, call, name, _when(ctx, assign), is_read)
        if found is not None:
            out.append(found)
    for call, when in _nested_constants(analysis, named):
        tracker = Follower(
            ctx, through_indexing=True, staged=follower.staged, reverse_mode=follower.reverse_mode,
            jax_operand=lambda e: "NumPy" not in (array_origin(analysis, e) or "NumPy"),
        )
        found = _constant_finding(analysis, tracker, ints, seen_sinks, call, None, when, lambda n, t=tracker: id(n) in t.passed)
        if found is not None:
            out.append(found)
    return out


def _nested_constants(analysis: Analysis, named: set[int]) -> list[tuple[cst.Call, str]]:
    """(the call, when it runs) for each jax array made inside an expression of a statement of the
    module, or of the own body of a function no trace runs (``main()``), and handed, through
    arithmetic only, to a class or a helper of the module (`_handed_to_the_module`)."""
    ctx = analysis.ctx
    outer = {id(s) for s in _outer_statements(ctx)}
    found: list[tuple[cst.Call, str]] = []
    for call in ctx.calls:
        if id(call) in named or made_array(ctx.names.qualified_name(call.func) or "") != "an array":
            continue
        home = ctx.enclosing_function(call)
        if home is not None and (id(ctx.statement_of(call)) not in outer or runs_staged(analysis, home)):
            continue
        if not _handed_to_the_module(ctx, call):
            continue
        found.append((call, "when the module runs" if home is None else f"when `{function_name(home)}` runs"))
    return found


def _handed_to_the_module(ctx, call: cst.Call) -> bool:
    """The array goes, through arithmetic only, into an argument of a class or a plain def of the
    module (``Wrapper(model, bins=128 * jnp.array(dims))``): code that may keep it, which the
    follower reads. Anything else it meets first (a jax or NumPy call, ``print``) takes it as data."""
    node: cst.CSTNode = call
    while isinstance(parent := ctx.parent(node), (cst.BinaryOperation, cst.UnaryOperation)):
        node = parent
    arg = ctx.parent(node)
    holder = ctx.parent(arg) if isinstance(arg, cst.Arg) and arg.value is node else None
    if not isinstance(holder, cst.Call):
        return False
    target = single_binding(ctx, holder.func) if isinstance(holder.func, cst.Name) else None
    return isinstance(target, (cst.ClassDef, cst.FunctionDef))


def _constant_finding(
    analysis: Analysis,
    follower: Follower,
    ints: IntStatic,
    seen_sinks: set[int],
    call: cst.Call,
    name: str | None,
    when: str,
    is_read: Callable[[cst.CSTNode], bool],
) -> Finding | None:
    """The finding for the constant `call` makes (bound to `name`, or None: made inside an
    expression; read where `is_read` holds), where staged code needs it concrete; None where it
    goes nowhere that fails."""
    ctx = analysis.ctx
    shown = name if name is not None else shorten(ctx.code(call), 40)
    home = ctx.enclosing_function(call)
    flow = follower.follow(call)
    mixed = next((o for o in follower.stopped if any(id(n) in follower.passed for n in (o, *_descendants(o)))), None)
    if mixed is not None:  # the operand the follower stopped at is made of the value too
        flow = Flow(flow.sinks, f"`{shorten(ctx.code(mixed), 40)}` is computed from it too")
    failing = [
        (sink, why) for sink in flow.sinks
        if ctx.enclosing_function(sink.node) is not home  # read where it is computed: not a constant there
        and (why := _fails(analysis, sink, shown, is_read, call, ints)) is not None
        and id(sink.node) not in seen_sinks
    ]
    if not failing:
        return None
    seen_sinks.update(id(sink.node) for sink, _ in failing)
    sink, why = failing[0]
    line = ctx.span(sink.node).start.line
    more = f" (and {len(failing) - 1} more place{'s' if len(failing) > 2 else ''})" if len(failing) > 1 else ""
    told = (
        f"`{shown}` is a jax array computed {when}, a constant where jitted code reads it, but "
        f"{why}, and {sink.reason} (line {line}){more}"
    )
    needed = tuple(v for s, _ in failing for v in needed_values(ctx, s))
    twin = computed_with_numpy(analysis, call, ints, flow, needed, reads_of_it=is_read)
    if not isinstance(twin, str):
        edits, text = twin
        return ctx.finding(
            "JAX304",
            _read_in(ctx, sink, is_read) or sink.node,
            f"{told}; it is made of Python ints only, and NumPy computes the same ints, read on the host there: "
            f"`{shown} = {shorten(text, 80)}`" if name is not None else
            f"{told}; NumPy computes the same values, read on the host there: `{shorten(text, 80)}`",
            edits,
            description="compute the constant with NumPy",
        )
    return ctx.finding(
        "JAX304",
        _read_in(ctx, sink, is_read) or sink.node,
        f"{told}; not rewritten: {twin}",
        notes=(
            f"option: build `{shown}` with NumPy (`np.` for `jnp.`) if every reader takes a NumPy array",
            f"option: keep Python ints where the value is needed (`tuple(...)` of them), and `{shown}` for the array uses",
        ),
    )


def _outer_statements(ctx) -> list[cst.CSTNode]:
    """The statements of the module and of each function's own body: where a constant the
    functions nested there read is bound (`sinks.Follower` follows such a name into them)."""
    blocks = [ctx.module.body]
    blocks += [fn.body.body for fn in ctx.nodes_of(cst.FunctionDef) if isinstance(fn.body, cst.IndentedBlock)]
    return [statement for block in blocks for statement in block]


def _when(ctx, assign: cst.Assign) -> str:
    fn = ctx.enclosing_function(assign)
    if fn is None:
        return "when the module runs"
    if isinstance(assign.targets[0].target, cst.Attribute):
        return "when the object is built"
    return f"when `{fn.name.value}` runs, before the nested function reading it"  # type: ignore[union-attr]


def _name_read(name: str) -> Callable[[cst.CSTNode], bool]:
    return lambda node: isinstance(node, cst.Name) and node.value == name


def _field_read(field: str) -> Callable[[cst.CSTNode], bool]:
    return lambda node: isinstance(node, cst.Attribute) and node.attr.value == field and isinstance(node.value, cst.Name)


def _fails(
    analysis: Analysis, sink: Sink, name: str, is_read: Callable[[cst.CSTNode], bool], call: cst.Call, ints: IntStatic
) -> str | None:
    """Why the constant `name` (made by `call`, read where `is_read` holds) fails at `sink`, in code
    always staged; None where that is not shown (eager code, a trace-time block, a place that reads
    a 0-d array's value)."""
    ctx = analysis.ctx
    fn = ctx.enclosing_function(sink.node)
    if fn is None or in_eager_block(ctx, sink.node) or not _staged_somewhere(analysis, fn):
        return None
    for value in needed_values(ctx, sink):
        if is_read(value):
            qualified = ctx.names.qualified_name(sink.node.func) if isinstance(sink.node, cst.Call) else None
            if _vector(analysis, call, ints) and (sink.shape or qualified in _READ_THROUGH_JAX):
                return f"`{ctx.code(sink.node.func)}` reads the entries of the vector `{name}` through a JAX operation, which the trace stages"  # type: ignore[attr-defined]
            continue
        operation = _operation_on(value, is_read)
        if operation is not None:
            return f"`{shorten(ctx.code(operation), 40)}` is a JAX operation on it, which the trace stages (a tracer, even of a constant)"
    return None


def _staged_somewhere(analysis: Analysis, fn) -> bool:
    """`fn` runs staged on every run (`always_staged`), or one of its ways in goes through a staging
    transform (``jax.jit(jax.vmap(bijection.transform))`` beside an eager call): that run fails."""
    if always_staged(analysis, fn):
        return True
    return any(w.name in STAGING for route in analysis.traces.routes(fn) or () for w in route.wraps)


def _operation_on(value: cst.BaseExpression, is_read: Callable[[cst.CSTNode], bool]) -> cst.CSTNode | None:
    """The operator expression in `value` whose operand is a read of the constant (``N + 1``, ``-N``)."""
    for node in (value, *_descendants(value)):
        if isinstance(node, cst.BinaryOperation) and (is_read(node.left) or is_read(node.right)):
            return node
        if isinstance(node, cst.UnaryOperation) and is_read(node.expression):
            return node
    return None


def _descendants(node: cst.CSTNode):
    for child in node.children:
        yield child
        yield from _descendants(child)


def _read_in(ctx, sink: Sink, is_read: Callable[[cst.CSTNode], bool]) -> cst.CSTNode | None:
    for value in needed_values(ctx, sink):
        for node in (value, *_descendants(value)):
            if is_read(node):
                return node
    return None


def _vector(analysis: Analysis, call: cst.Call, ints: IntStatic) -> bool:
    """`call` surely gives an array with at least one axis: a cumulative sum, a range, a ravel,
    or ``jnp.array`` of a list or tuple."""
    ctx = analysis.ctx
    qualified = ctx.names.qualified_name(call.func) or ""
    if not qualified.startswith("jax.numpy."):
        return False
    short = qualified[len("jax.numpy.") :]
    if short in _VECTORS:
        return True
    if short in ("array", "asarray") and call.args:
        data = call.args[0].value
        return isinstance(data, (cst.List, cst.Tuple, cst.ListComp)) or ints.int_sequence(data).kind is IntKind.INT
    return False
