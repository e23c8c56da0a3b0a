"""Compute jnp on static values while tracing: wrap the statement in ``jax.ensure_compile_time_eval()``.

Under jit a jnp call is staged even when every operand is a Python value, so
``int(jnp.ceil(T / delta_t))`` fails although ``T`` and ``delta_t`` are static
(phentax#28). Rewriting it in Python (`math.ceil`) would compute in float64
where jnp computes in float32, and could round differently; JAX402 therefore
rewrites only integer arithmetic. Inside ``with jax.ensure_compile_time_eval():``
the same jnp calls run on their concrete operands at trace time: the same
code, the same dtypes and the same rounding, now a concrete array that
``int()``, a shape or ``range`` accepts (docs/jax4xx-behaviour.md, B).

Proof obligations, each refused with the reason:

* every value the call is made of is static where it is written
  (`int_values.IntStatic`: Python ints, floats, static parameters, array
  metadata, a helper's parameter every call passes a static value), or an
  attribute of a static value (``self.T`` of a static ``self``), through
  arithmetic and jax.numpy calls;
* the value the place needs concrete (`needed`: ``s`` of ``float(s)``) is
  made of nothing else: static values, and jnp calls, indexed updates or
  array methods on them written in what the block wraps, through the binding
  that reaches each name (a helper's parameter: what every call passes).
  ``s = -jnp.log(1e-6) / resolution`` with a traced ``resolution`` stays a
  tracer inside the block, and so does a value a later statement computes
  with jnp outside it;
* the block wraps the call's statement, and, when the value is built over
  several statements (jax#3620: ``npad = jnp.zeros(...)`` then ``npad =
  npad.at[axis, 1].set(pad_size)``), the consecutive statements of its block
  from the first one it is made of; those between are wrapped too (what they
  compute from tracers stays traced, and the names they bind stay bound). A
  value built so may hold several numbers, so then the place must read it
  concretely: Python's reads, or ``jnp.pad``'s widths and ``repeat``'s counts,
  which NumPy converts (docs/jax4xx-behaviour.md, G);
* every wrapped statement is a simple statement in a function's block, not
  already in such a ``with``, with no string literal across lines (indenting
  its lines would change it);
* ``jax.ensure_compile_time_eval`` has a name there (`edits.imports`).

Any jnp call of the statement whose operands are traced still traces: the
block only changes what is computed from concrete values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import libcst as cst
from libcst.metadata import BuiltinAssignment, GlobalScope

from jaxfix.transforms.core.findings import Edit, shorten
from jaxfix.transforms.edits.fresh_names import fresh_name, names_in
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.edits.statements import string_across_lines
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.arguments import passed_to
from jaxfix.transforms.semantics.array_values import RESHAPING_METHODS, indexed_update
from jaxfix.transforms.semantics.class_hashing import given_to_field
from jaxfix.transforms.semantics.constants import (
    assigned_value,
    bound_after,
    class_members,
    local_bindings,
    reaching_binding,
    single_binding,
    written_out,
)
from jaxfix.transforms.semantics.importers import here, used_elsewhere
from jaxfix.transforms.semantics.int_values import IntStatic, Kind, counted_comprehension
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.reads import names_read, reads
from jaxfix.transforms.semantics.sinks import exact_reduction, numpy_function
from jaxfix.transforms.semantics.staged import in_eager_block, runs_staged
from jaxfix.transforms.semantics.static_values import Kind as Static
from jaxfix.transforms.semantics.traced_values import METADATA_ATTRIBUTES

EVAL_BLOCK = "jax.ensure_compile_time_eval"
_JNP = "jax.numpy."


def evaluate_while_tracing(
    analysis: Analysis,
    call: cst.Call,
    ints: IntStatic,
    needed: Sequence[cst.BaseExpression],
    place: cst.CSTNode | None = None,
) -> tuple[tuple[Edit, ...], str] | str:
    """(the edits, the ``with`` line) that compute `call` at trace time, so that each of `needed`
    (the values `place` takes, made from the call's) is concrete there; else why not."""
    ctx = analysis.ctx
    statement = ctx.statement_of(call)
    if place is not None and _test_computes(place):
        # `if not (n > 0).all():` after the block would stage its operations again: the test is
        # computed inside the block, as its last statement (`_with_test`)
        if not isinstance(place, cst.If):
            return (
                f"the test `{shorten(ctx.code(place.test), 40)}` computes on the value where it is read, after the "  # type: ignore[attr-defined]
                "block, where the trace stages it again, and only an `if`'s test can move into the block"
            )
        return _with_test(analysis, _with_earlier_statements(analysis, call, ints, needed, place, through_test=True), place)
    unproven = _unproven_operand(analysis, call, ints)
    mixed = next(
        (m for v in needed if (m := unproven_part(analysis, v, ints, lambda n: ctx.statement_of(n) is statement, 0))),
        None,
    )
    if unproven is not None or mixed is not None:
        earlier = _with_earlier_statements(analysis, call, ints, needed, place)
        if not isinstance(earlier, str):
            return earlier
        if unproven is not None:
            return f"`{ctx.code(unproven)}` is not shown to be static"
        return f"the value needed concrete is also made of `{ctx.code(mixed)}`, which is not shown to be static"  # type: ignore[arg-type]
    vector = _vector_made(ctx, call) if place is not None and not _reads_concretely(ctx, place, needed) else None
    if vector is not None:
        with_place = _with_earlier_statements(analysis, call, ints, needed, place)
        if not isinstance(with_place, str):
            return with_place
        return (
            f"`{shorten(ctx.code(vector), 40)}` may make an array of several values, and after the block "
            f"`{shorten(ctx.code(place), 40)}` would take it through JAX operations, which the trace stages again"  # type: ignore[arg-type]
        )
    return _wrapped(analysis, statement, call)


def _test_computes(place: cst.CSTNode) -> bool:
    """Does the test of a conditional place do more than Python's own reads of names (``if n:``,
    ``not n``, ``a and b``)? A comparison, arithmetic, a call or an index on a value made concrete
    in the block is staged again by the trace after it."""
    test = place.test if isinstance(place, (cst.If, cst.While, cst.IfExp, cst.Assert)) else None
    stack: list[cst.CSTNode] = [test] if test is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            stack.append(node.expression)
        elif isinstance(node, cst.BooleanOperation):
            stack.extend((node.left, node.right))
        elif not isinstance(node, cst.Name):
            return True
    return False


def _with_test(analysis: Analysis, found: tuple[tuple[Edit, ...], str] | str, place: cst.If) -> tuple[tuple[Edit, ...], str] | str:
    """The block `found` wraps the statements right before the ``if``: the test becomes its last
    statement (``n_test = not (n > 0).all()``) and the ``if`` reads the name it binds, free in the
    function."""
    ctx = analysis.ctx
    if isinstance(found, str):
        return found
    edits, opening = found
    test = ctx.code(place.test)
    fn = ctx.enclosing_function(place)
    if "\n" in test or fn is None:
        return "the test is written over several lines"
    fresh = fresh_name(f"{_first_name(place.test)}_test", names_in(fn))
    previous = _statement_before(ctx, place)
    line_end = ctx.lines.line_start(_last_line(ctx, previous) + 1)  # type: ignore[arg-type]
    inner = ctx.indent_of(place) + _step(ctx, place)
    hoisted = Edit(line_end, line_end, f"{inner}{fresh} = {test}\n")
    return (*edits, hoisted, ctx.replace(place.test, fresh)), opening


def _first_name(expr: cst.BaseExpression) -> str:
    """The first name the test reads, breadth first (`n` of ``not (n > 0).all()``): the fresh
    name's stem, as `eager_block_tests` names it."""
    stack: list[cst.CSTNode] = [expr]
    while stack:
        node = stack.pop(0)
        if isinstance(node, cst.Name):
            return node.value
        stack.extend([node.value] if isinstance(node, cst.Attribute) else node.children)
    return "condition"


def _statement_before(ctx, statement: cst.CSTNode) -> cst.CSTNode | None:
    block = ctx.parent(statement)
    body = list(block.body) if isinstance(block, cst.IndentedBlock) else []
    index = next((i for i, s in enumerate(body) if s is statement), 0)
    return body[index - 1] if index else None


def _with_earlier_statements(
    analysis: Analysis,
    call: cst.Call,
    ints: IntStatic,
    needed: Sequence[cst.BaseExpression],
    place: cst.CSTNode | None,
    through_test: bool = False,
) -> tuple[tuple[Edit, ...], str] | str:
    """The block around the run of statements that builds the value: from the first one whose
    jnp call the value is made of to the call's own (jax#3620: ``npad = jnp.zeros((ndim, 2))``,
    then ``npad = npad.at[axis, 1].set(pad_size)``, both on static values); else why not.

    Every name the value reads is followed to the binding that reaches it; a jnp call, an indexed
    update or an array method it meets must be written in a statement of the call's block at or
    before the call's, and everything else static. The statements between are wrapped too: what
    they compute from traced values stays traced, and the names they bind stay bound after the
    block. The value may hold several numbers: where the place would take it through JAX
    operations after the block (`_reads_concretely` says no: ``jnp.nonzero(a)``, jax#5280), the
    run goes on to the place's own statement, in the same block, so it computes there on the
    concrete value."""
    ctx = analysis.ctx
    statement = ctx.statement_of(call)
    block = ctx.parent(statement)
    if place is None or not isinstance(block, cst.IndentedBlock):
        return "the value is not computed in a statement of its own inside a function"
    position = {id(s): i for i, s in enumerate(block.body)}
    last = position.get(id(statement))
    if last is None:
        return "the value is not computed in a statement of its own inside a function"
    if through_test:
        # the run goes to the statement before the `if`, whose test `_with_test` moves into it
        at = position.get(id(place))
        if at is None or at <= last:
            return "the `if` that needs it concrete is not a statement after it in the same block"
        last = at - 1
    elif not _reads_concretely(ctx, place, needed):
        # `jnp.split(y, v)`, `jnp.nonzero(a)` (jax#5280) would stage the value again after the
        # block: the place's own statement goes in too, where it computes on the concrete value
        at = position.get(id(ctx.statement_of(place)))
        if at is None or at < last:
            return "the place that needs it concrete is not in a statement after it in the same block"
        last = at
    first = position[id(statement)]

    def written(node: cst.CSTNode) -> bool:
        nonlocal first
        if through_test and (node is place.test or any(a is place.test for a in ctx.ancestors(node))):  # type: ignore[union-attr]
            return True  # in the test, which moves into the block
        index = position.get(id(ctx.statement_of(node)))
        if index is None or index > last:
            return False
        first = min(first, index)
        return True

    for value in (call, *needed):
        found = unproven_part(analysis, value, ints, written, 0)
        if found is not None:
            return f"the value needed concrete is also made of `{ctx.code(found)}`, which is not shown to be static"
    if first == last:
        return _wrapped(analysis, block.body[first], call)
    return _wrapped_run(analysis, block.body[first : last + 1], call)


def _wrapped_run(analysis: Analysis, run: Sequence[cst.BaseStatement], node: cst.CSTNode) -> tuple[tuple[Edit, ...], str] | str:
    """The edits putting the consecutive statements `run` in one ``with`` block: the opening
    before the first, one more level of indentation before every other line of the run."""
    ctx = analysis.ctx
    for statement in run:
        done = _wrapped(analysis, statement, node)
        if isinstance(done, str):
            return f"line {ctx.span(statement).start.line}: {done}"
    edits, opening = _wrapped(analysis, run[0], node)  # type: ignore[misc]
    indented = _indented(ctx, run[0], run[-1])
    return (*(e for e in edits if e not in indented), *indented), opening


def _wrapped(analysis: Analysis, statement: cst.CSTNode, node: cst.CSTNode) -> tuple[tuple[Edit, ...], str] | str:
    """The edits putting `statement` (where `node` is computed) in the ``with`` block; else why not."""
    ctx = analysis.ctx
    block = ctx.parent(statement)
    if not isinstance(statement, cst.SimpleStatementLine) or not isinstance(block, cst.IndentedBlock):
        return "the value is not computed in a statement of its own inside a function"
    if ctx.enclosing_function(statement) is None or in_eager_block(ctx, node):
        return "the statement is not in a function's code, or already computed at trace time"
    if string_across_lines(ctx, statement):
        return "a string in the statement spans lines, and indenting them would change it"
    spelled = planner(analysis).spell(EVAL_BLOCK, statement)
    if spelled is None:
        return "no name for `jax.ensure_compile_time_eval` is free here"
    indent = ctx.indent_of(statement)
    opening = f"with {spelled.text}():"
    edits = [Edit(ctx.start(statement), ctx.start(statement), f"{opening}\n{indent}{_step(ctx, statement)}")]
    if spelled.edit is not None:
        edits.append(spelled.edit)
    return (*edits, *_indented(ctx, statement, statement)), opening


def _indented(ctx, first: cst.CSTNode, last: cst.CSTNode) -> tuple[Edit, ...]:
    """One more level of the block's indentation before every line after the first from `first`
    to the end of `last` (a continuation line inside brackets may sit anywhere; a comment line
    between statements is moved with them)."""
    step = _step(ctx, first)
    lines = range(ctx.local_span(first).start.line + 1, _last_line(ctx, last) + 1)
    return tuple(Edit(ctx.lines.line_start(n), ctx.lines.line_start(n), step) for n in lines if ctx.lines.line_text(n).strip())


def _step(ctx, statement: cst.CSTNode) -> str:
    """One level of indentation as the block around `statement` writes it: its indentation less
    that of the statement owning the block (two spaces in ott's code); four spaces otherwise."""
    owner = ctx.parent(ctx.parent(statement))
    inner, outer = ctx.indent_of(statement), ctx.indent_of(owner) if owner is not None else ""
    step = inner[len(outer):] if inner.startswith(outer) else ""
    return step if step.strip() == "" and step else "    "


def _last_line(ctx, statement: cst.CSTNode) -> int:
    span = ctx.local_span(statement)
    return span.end.line - (1 if span.end.column == 0 else 0)


def _unproven_operand(analysis: Analysis, call: cst.Call, ints: IntStatic) -> cst.CSTNode | None:
    """The first value the call is made of that is not shown static (None: all are)."""
    ctx = analysis.ctx
    stack: list[cst.BaseExpression] = [a.value for a in call.args if not a.star]
    if any(a.star for a in call.args):
        return call
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.Integer, cst.Float)):
            continue
        if isinstance(node, (cst.BinaryOperation, cst.UnaryOperation)):
            stack.extend(c for c in node.children if isinstance(c, cst.BaseExpression))
            continue
        if isinstance(node, cst.Comparison):
            stack.extend([node.left, *(c.comparator for c in node.comparisons)])
            continue
        if isinstance(node, (cst.Tuple, cst.List)):
            stack.extend(e.value for e in node.elements)
            continue
        if counted_comprehension(node):
            stack.append(node.elt)  # type: ignore[attr-defined]
            continue
        if isinstance(node, cst.Call) and (ctx.names.qualified_name(node.func) or "").startswith(_JNP):
            if any(a.star for a in node.args):
                return node
            stack.extend(a.value for a in node.args)
            continue
        if not _concrete(analysis, node, ints, 0):
            return node
    return None


#: Python's own reads of a value: its ``__index__``, ``__int__``, ``__bool__`` or ``tolist``, which a
#: concrete array answers after the block as well (docs/jax4xx-behaviour.md, G).
_PYTHON_READERS = frozenset(
    {"builtins.int", "builtins.float", "builtins.bool", "builtins.range", "builtins.round", "operator.index",
     "math.ceil", "math.floor", "math.trunc"}
)
#: jax.numpy functions whose result is an array of several values whatever their operands.
_VECTOR_MAKERS = frozenset(
    {"array", "asarray", "arange", "linspace", "logspace", "zeros", "ones", "full", "empty", "eye", "identity",
     "tile", "repeat", "concatenate", "stack", "hstack", "vstack", "split", "meshgrid", "indices", "cumsum",
     "cumprod", "diff", "sort", "unique", "nonzero", "where", "broadcast_to"}
)

#: jax.numpy reductions: given one operand (no axis), a single value.
_REDUCERS = frozenset({"prod", "sum", "max", "min", "mean", "amax", "amin", "all", "any", "count_nonzero", "size", "ndim", "argmax", "argmin"})


def _python_reads(ctx, place: cst.CSTNode) -> bool:
    """Does the place read the value through Python's protocols only (a conversion, ``range``, a
    slice bound, an index, a test, ``.tolist()``)? A concrete array of any shape answers those after
    the block; a jax.numpy function handed it (``jnp.split(y, v)``) runs JAX operations on it, which
    the trace stages again, so a concrete vector fails there (flax#648)."""
    if isinstance(place, cst.Call):
        if isinstance(place.func, cst.Attribute) and place.func.attr.value in ("tolist", "item"):
            return True
        qualified = ctx.names.qualified_name(place.func)
        return qualified in _PYTHON_READERS or numpy_function(qualified)  # NumPy converts a concrete array
    return isinstance(place, (cst.Slice, cst.Subscript, cst.If, cst.While, cst.IfExp, cst.Assert, cst.BooleanOperation, cst.UnaryOperation))


#: jax.numpy functions that read an argument concretely (NumPy converts it), so a concrete array of
#: several values serves there after the block (docs/jax4xx-behaviour.md, G): its name, its position.
_CONCRETE_VECTOR_ARGUMENTS = {"jax.numpy.pad": ("pad_width", 1), "jax.numpy.repeat": ("repeats", 1), ".repeat": ("repeats", 0)}


def _reads_concretely(ctx, place: cst.CSTNode, needed: Sequence[cst.BaseExpression]) -> bool:
    """Does the place take the value as it is, whatever its shape: Python's reads (`_python_reads`),
    or an argument jax.numpy converts with NumPy (``jnp.pad(a, npad)``'s widths), which is all the
    place needs concrete?"""
    if _python_reads(ctx, place):
        return True
    if not isinstance(place, cst.Call) or not needed:
        return False
    qualified = ctx.names.qualified_name(place.func)
    if qualified is None and isinstance(place.func, cst.Attribute):
        qualified = f".{place.func.attr.value}"  # an array method: `ids.repeat(counts)`
    keyword, index = _CONCRETE_VECTOR_ARGUMENTS.get(qualified or "", ("", -1))
    if index < 0 or any(a.star for a in place.args):
        return False
    taken = [
        a.value
        for i, a in enumerate(place.args)
        if (a.keyword is None and i == index) or (a.keyword is not None and a.keyword.value == keyword)
    ]
    return all(any(value is t for t in taken) for value in needed)


def _array_method_receiver(expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """``npad`` of ``npad.at[i].set(v)`` or of ``npad.reshape(2, 3)``: a JAX operation on an array
    whose operands are the receiver and the arguments; None for anything else."""
    if not isinstance(expr, cst.Call):
        return None
    updated = indexed_update(expr.func)
    if updated is not None:
        return updated
    func = expr.func
    if isinstance(func, cst.Attribute) and func.attr.value in RESHAPING_METHODS:
        return func.value
    return None


def _vector_made(ctx, call: cst.Call) -> cst.CSTNode | None:
    """The first part of `call` that may make an array of several values: a jax.numpy call given a
    tuple, list or comprehension, or one of `_VECTOR_MAKERS`; None where every part is a scalar."""
    stack: list[cst.CSTNode] = [call]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call):
            qualified = ctx.names.qualified_name(node.func) or ""
            if qualified.startswith(_JNP):
                if qualified[len(_JNP):] in _REDUCERS and len(node.args) == 1 and node.args[0].keyword is None:
                    continue  # `jnp.prod(jnp.asarray(shape))`: one value, whatever it reduces
                if qualified[len(_JNP):] in _VECTOR_MAKERS:
                    return node
                if any(isinstance(a.value, (cst.Tuple, cst.List, cst.ListComp, cst.GeneratorExp)) for a in node.args):
                    return node
        stack.extend(c for c in node.children if isinstance(c, (cst.BaseExpression, cst.Arg)))
    return None


def _reaching_values(analysis: Analysis, read: cst.Name) -> list[cst.BaseExpression] | None:
    """What a local bound several times may hold at `read`: the value of each binding that may
    reach it (none written after it without a loop), and what every call passes for the
    parameter; None when a binding is anything else or a call cannot be seen."""
    ctx = analysis.ctx
    bindings = local_bindings(ctx, read)
    if bindings is None:
        return None
    out: list[cst.BaseExpression] = []
    for binding in bindings:
        if isinstance(binding, cst.Param):
            passed = passed_to(analysis, binding)
            if not passed:
                return None
            out.extend(passed)
        elif not bound_after(ctx, binding, read):
            out.append(binding)
    return out


def unproven_part(
    analysis: Analysis,
    expr: cst.BaseExpression,
    ints: IntStatic,
    written: Callable[[cst.CSTNode], bool],
    depth: int,
    computed: Callable[[cst.CSTNode], bool] | None = None,
) -> cst.CSTNode | None:
    """The first part of `expr` that is neither static nor a JAX operation on static values written
    where the block wraps (`written`), following names to the binding that reaches them; None when
    there is none. `computed`: the expressions the repair makes concrete whatever they are made of
    (NumPy's twin of a call, a read of the constant it computes)."""
    ctx = analysis.ctx
    if depth > 8:
        return expr
    if (computed is not None and computed(expr)) or isinstance(expr, (cst.Integer, cst.Float)) or _concrete(analysis, expr, ints, 0):
        return None
    parts: list[cst.BaseExpression]
    array = _array_method_receiver(expr)
    if array is not None:  # `npad.at[axis, 1].set(pad_size)`, `v.reshape(2, 3)`: JAX operations on `npad`
        if not written(expr) or any(a.star for a in expr.args):  # type: ignore[attr-defined]
            return expr
        parts = [array, *(a.value for a in expr.args)]  # type: ignore[attr-defined]
        at = expr.func.value  # type: ignore[attr-defined]
        if isinstance(at, cst.Subscript):  # the indices of `.at[...]`
            parts += [e.slice.value for e in at.slice if isinstance(e.slice, cst.Index)]
            if any(not isinstance(e.slice, cst.Index) for e in at.slice):
                return expr
    elif (reduced := exact_reduction(expr)) is not None:
        parts = [reduced]  # `(n > 0).all()`: an operator on the value, as `n > 0` is, wherever written
    elif isinstance(expr, (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison)):
        parts = [c for c in expr.children if isinstance(c, cst.BaseExpression)]
        parts += [t.comparator for t in expr.comparisons] if isinstance(expr, cst.Comparison) else []
    elif isinstance(expr, (cst.Tuple, cst.List)):
        parts = [e.value for e in expr.elements]
    elif counted_comprehension(expr):
        parts = [expr.elt]  # type: ignore[attr-defined]
    elif isinstance(expr, cst.Call) and (ctx.names.qualified_name(expr.func) or "").startswith(_JNP):
        if not written(expr) or any(a.star for a in expr.args):
            return expr
        parts = [a.value for a in expr.args]
    elif isinstance(expr, cst.Name) and reaching_binding(ctx, expr) is None and (every := _reaching_values(analysis, expr)) is not None:
        parts = every  # several bindings may reach it (ivy#18053's `num_or_size_splits`): each must be static
    elif isinstance(expr, cst.Name):
        binding = reaching_binding(ctx, expr)
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        passed = passed_to(analysis, binding) if isinstance(binding, cst.Param) else None
        if value is None and not passed:
            return expr
        if isinstance(value, (cst.List, cst.Dict, cst.Set)) and not _never_changed(ctx, binding):  # type: ignore[arg-type]
            return expr  # `dist = []` then `dist.append(tracer)`: the display is not what it holds
        parts = [value] if value is not None else passed  # a helper's parameter: what every call passes
    elif isinstance(expr, cst.Subscript) and all(isinstance(e.slice, (cst.Index, cst.Slice)) for e in expr.slice):
        parts = [expr.value]
        for element in expr.slice:  # `v[0]`, `v[:-1]`: a part of the value, at static places
            bound = element.slice
            parts += [bound.value] if isinstance(bound, cst.Index) else [b for b in (bound.lower, bound.upper, bound.step) if b is not None]  # type: ignore[union-attr]
    elif isinstance(expr, cst.Attribute) and (given := _field_given(analysis, expr)) is not None:
        parts = given  # `self.features` of a module whose every construction here passes it
    else:
        return expr
    for part in parts:
        found = unproven_part(analysis, part, ints, written, depth + 1, computed)
        if found is not None:
            return found
    return None


def _never_changed(ctx, binding: cst.Name) -> bool:
    """No read of the list bound here changes it where the module shows: no method is called on
    it (``.append``), no item or slice of it is assigned, added to or deleted."""
    for read in reads(ctx, binding):
        parent = ctx.parent(read)
        if isinstance(parent, cst.Attribute) and parent.value is read:
            return False
        if isinstance(parent, cst.Subscript) and parent.value is read:
            holder = ctx.parent(parent)
            if isinstance(holder, (cst.AssignTarget, cst.AugAssign, cst.Del)):
                return False
        if isinstance(parent, cst.AugAssign) and parent.target is read:
            return False
    return True


def _passed_concrete(analysis: Analysis, param: cst.Param, ints: IntStatic, depth: int) -> bool:
    """Every use of the parameter's function is a plain call (no transform, nothing escapes) that
    hands it a concrete value (dynamiqs#532: ``sesolve(H, psi0, tsave)`` with ``tsave`` a
    module-level list of floats, inside a jitted function)."""
    ctx = analysis.ctx
    fn = ctx.enclosing_function(param)
    routes = analysis.traces.routes(fn) if fn is not None else None
    if not routes or depth > 4:
        return False
    signature = function_info(ctx, fn).signature  # type: ignore[arg-type]
    for route in routes:
        if route.escapes or route.call is None or route.wraps:
            return False
        argument = route.argument(signature, param.name.value)
        if not isinstance(argument, cst.BaseExpression) or not _concrete(analysis, argument, ints, depth + 1):
            return False
    return True


def _field_given(analysis: Analysis, read: cst.Attribute) -> list[cst.BaseExpression] | None:
    """``self.f`` in a method of a class this module alone builds: what each construction gives
    the field (flax#1516: ``MLP(widths + (n,))`` in a ``setup``), else None."""
    ctx = analysis.ctx
    method = ctx.enclosing_function(read)
    cls = ctx.parent(ctx.parent(method)) if isinstance(method, cst.FunctionDef) else None
    if not isinstance(cls, cst.ClassDef) or not isinstance(read.value, cst.Name):
        return None
    positional = [*method.params.posonly_params, *method.params.params]  # type: ignore[union-attr]
    if not positional or positional[0].name.value != read.value.value:
        return None
    definition = here(ctx, cls.name.value)
    if used_elsewhere(ctx, definition):
        return None
    return given_to_field(ctx, cls, read.attr.value)


def _concrete(analysis: Analysis, node: cst.BaseExpression, ints: IntStatic, depth: int) -> bool:
    """Is `node` a value jit hands the code as it is (never a tracer)? Static where written; or an
    attribute of such a value (``self.T`` of a static ``self``: a Python number, or an array the
    object holds, concrete either way); or a name every binding of which is one of those
    (``if T is None: T = self.T`` after the static parameter ``T``)."""
    if depth > 6:
        return False
    if ints.kind(node).kind is not Kind.UNKNOWN or ints.int_sequence(node).kind is Kind.INT:
        return True  # a Python int, or a tuple of them (`x.shape`, `jnp.shape(x)` of a tracer too)
    if isinstance(node, cst.Attribute):
        if analysis.staticness.verdict(node).kind is Static.STATIC:
            return True  # `jnp.float32`: a library object; a linen module's field
        return _concrete(analysis, node.value, ints, depth + 1)
    if isinstance(node, cst.Subscript):  # `shape[0]`, `shape[1:]`: part of a concrete value, at concrete places
        return _concrete(analysis, node.value, ints, depth + 1) and all(
            _concrete(analysis, e.slice.value, ints, depth + 1)
            if isinstance(e.slice, cst.Index)
            else all(b is None or _concrete(analysis, b, ints, depth + 1) for b in (e.slice.lower, e.slice.upper, e.slice.step))
            for e in node.slice
        )
    if isinstance(node, cst.Attribute) and node.attr.value in METADATA_ATTRIBUTES:
        return True  # `x.shape` of any array, a tracer's too: jit keeps shapes static
    if isinstance(node, (cst.List, cst.Tuple)):  # `[0.0, 0.5, 1.0]`: Python numbers, never a tracer
        return all(isinstance(e, cst.Element) and _concrete(analysis, e.value, ints, depth + 1) for e in node.elements)
    if not isinstance(node, cst.Name):
        return False
    if analysis.staticness.verdict(node).kind is Static.STATIC:
        return True
    reaching = reaching_binding(analysis.ctx, node)
    if isinstance(reaching, cst.Param):
        return analysis.staticness.parameter_verdict(reaching).kind is Static.STATIC or _passed_concrete(
            analysis, reaching, ints, depth
        )
    if isinstance(reaching, cst.Name) and single_binding(analysis.ctx, node) is reaching:
        value = assigned_value(analysis.ctx, reaching)  # a constant bound once (module level, or a closure's)
        if value is not None:
            value = written_out(analysis.ctx, value)  # `GRID = make_grid()`: the display written out afresh
        if isinstance(value, cst.List) and not _never_changed(analysis.ctx, reaching):
            return False  # `dist = []` then `dist.append(tracer)`: the display is not what it holds
        return value is not None and _concrete(analysis, value, ints, depth + 1)
    bindings = local_bindings(analysis.ctx, node)
    if bindings is None:
        return False
    return all(
        analysis.staticness.parameter_verdict(b).kind is Static.STATIC
        if isinstance(b, cst.Param)
        else _concrete(analysis, b, ints, depth + 1)
        for b in bindings
    )


def helper_at_trace_time(
    analysis: Analysis, helper: cst.FunctionDef, ints: IntStatic
) -> tuple[tuple[Edit, ...], str, tuple[int, ...]] | str:
    """(the edits, the ``with`` line, the lines wrapped) that run every staged use of `helper` at
    trace time, when all it computes comes from static values; else why not.

    evosax#2: ``es_params = strategy.default_params`` in a jitted function, with ``strategy``
    static, runs a property that computes hyperparameters with jnp and then ``min()`` of them.
    Each jnp call there is staged, so ``min`` gets tracers; at trace time the same code runs on
    concrete values and gives the numbers computing it before the jit would. Proven when the
    helper reads nothing from outside but module-level imports, definitions and builtins, and
    each use in staged code (`helper_uses`) hands it only static values (its receiver included)
    in a one-line statement of its own."""
    ctx = analysis.ctx
    outside = _outside_read(ctx, helper)
    if outside is not None:
        return f"`{helper.name.value}` reads `{ctx.code(outside)}`, which is bound outside it"
    uses = helper_uses(analysis, helper)
    if uses is None:
        return f"some use of `{helper.name.value}` is not shown"
    edits: list[Edit] = []
    lines: list[int] = []
    opening = ""
    wrapped: set[int] = set()
    for use in uses:
        if not runs_staged(analysis, ctx.enclosing_function(use)) or in_eager_block(ctx, use):
            continue
        inputs = [use.func.value] if isinstance(use, cst.Call) and isinstance(use.func, cst.Attribute) else []
        inputs += [a.value for a in use.args] if isinstance(use, cst.Call) else []
        inputs += [use.value] if isinstance(use, cst.Attribute) else []
        if isinstance(use, cst.Call) and any(a.star for a in use.args):
            return f"`{shorten(ctx.code(use))}` passes `*` arguments"
        unproven = next((i for i in inputs if not _concrete(analysis, i, ints, 0) and not _static_jnp(analysis, i, ints)), None)
        if unproven is not None:
            return f"`{shorten(ctx.code(use))}` (line {ctx.span(use).start.line}) hands it `{ctx.code(unproven)}`, not shown to be static"
        statement = ctx.statement_of(use)
        if id(statement) in wrapped:
            continue
        done = _wrapped(analysis, statement, use)
        if isinstance(done, str):
            return f"`{shorten(ctx.code(use))}` (line {ctx.span(use).start.line}): {done}"
        wrapped.add(id(statement))
        block_edits, opening = done
        edits.extend(e for e in block_edits if e not in edits)
        lines.append(ctx.span(statement).start.line)
    if not edits:
        return f"no use of `{helper.name.value}` in traced code could be found"
    return tuple(edits), opening, tuple(lines)


def _static_jnp(analysis: Analysis, expr: cst.BaseExpression, ints: IntStatic) -> bool:
    """A jnp call on static values only (``jnp.asarray(tsave, dtype=jnp.float32)``): written in the
    statement the block wraps, it is computed there too, on concrete values."""
    qualified = analysis.ctx.names.qualified_name(expr.func) if isinstance(expr, cst.Call) else None
    return bool(qualified and qualified.startswith(_JNP)) and _unproven_operand(analysis, expr, ints) is None  # type: ignore[arg-type]


def helper_uses(analysis: Analysis, helper: cst.FunctionDef) -> list[cst.BaseExpression] | None:
    """Every use of a method `helper` the module makes: ``x.helper(...)`` calls, or ``x.helper``
    reads of a property, each on an instance of its class (`TraceIndex.instance_class_of`);
    None when one may be something else."""
    ctx = analysis.ctx
    cls = ctx.parent(ctx.parent(helper))
    if not isinstance(cls, cst.ClassDef):
        return _function_calls(ctx, helper)
    decorators = {ctx.names.qualified_name(d.decorator) for d in helper.decorators}
    if decorators == {"builtins.staticmethod"}:
        return _static_method_calls(ctx, helper)
    if decorators - {"builtins.property"}:
        return None
    prop = bool(decorators)
    out: list[cst.BaseExpression] = []
    for attribute in ctx.attributes_named(helper.name.value):
        if analysis.traces.instance_class_of(attribute.value) is not cls:
            return None
        parent = ctx.parent(attribute)
        if prop:
            out.append(attribute)
        elif isinstance(parent, cst.Call) and parent.func is attribute:
            out.append(parent)
        else:
            return None
    return out


def _function_calls(ctx, helper: cst.FunctionDef) -> list[cst.BaseExpression] | None:
    """Every use of an undecorated def: calls by its name (dynamiqs#532's ``_check_tsave(...)``);
    None when it is used otherwise (handed on, stored) or not at all."""
    scope = ctx.scope(helper)
    assignments = scope.assignments[helper.name.value] if scope is not None else ()
    if helper.decorators or len(assignments) != 1:
        return None
    out: list[cst.BaseExpression] = []
    for access in next(iter(assignments)).references:
        call = ctx.parent(access.node)
        if not (isinstance(call, cst.Call) and call.func is access.node):
            return None
        out.append(call)
    return out or None


def _static_method_calls(ctx, helper: cst.FunctionDef) -> list[cst.BaseExpression] | None:
    """Every use of a staticmethod: ``Model.helper(...)`` calls that name it alone."""
    out: list[cst.BaseExpression] = []
    for attribute in ctx.attributes_named(helper.name.value):
        members = class_members(ctx, attribute)
        call = ctx.parent(attribute)
        if members != [helper] or not (isinstance(call, cst.Call) and call.func is attribute):
            return None
        out.append(call)
    return out or None


def _outside_read(ctx, helper: cst.FunctionDef) -> cst.Name | None:
    """A name the helper reads that is bound outside it, other than imports, defs, classes and
    builtins (a module's constant may be an array or change; a closure's variable may be a tracer)."""
    for node in names_read(helper.body):  # its body's names, not an attribute's or a keyword's
        scope = ctx.scope(node)
        if scope is None:
            return node
        assignments = scope[node.value]
        for assignment in assignments:
            if isinstance(assignment, BuiltinAssignment):
                continue
            bound = getattr(assignment, "node", None)
            if bound is not None and any(a is helper for a in ctx.ancestors(bound)):
                continue  # its own parameter or local
            if isinstance(bound, (cst.Import, cst.ImportFrom, cst.FunctionDef, cst.ClassDef)) and (
                isinstance(assignment.scope, GlobalScope) or len(assignments) == 1
            ):
                continue  # a definition (in a function around it too, when bound once there)
            return node
    return None
