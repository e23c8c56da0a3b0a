"""JAX308: a boolean mask computed from a traced array, used as an index.

``x[x < 5]`` has as many elements as the mask has ``True``s, a shape jit cannot
know, so indexing with a traced mask fails (``NonConcreteBooleanIndexError``),
and so does ``x.at[x < 5].set(0)`` (docs/jax308-behaviour.md). Where the
result keeps ``x``'s shape, ``jnp.where`` computes it with the mask as data:

* ``x.at[m].set(v)`` is ``jnp.where(m, v, x)``; ``.add(v)`` is
  ``jnp.where(m, x + v, x)``; ``.multiply(v)`` is ``jnp.where(m, x * v, x)``;
* ``x[m].sum()`` and ``jnp.sum(x[m])`` are ``jnp.where(m, x, 0).sum()``.

Exact when the mask is computed element-wise from ``x`` itself (``x < 5``,
``jnp.isnan(x)``, ``(x > 0) & (x < 1)``), so that it has ``x``'s shape, and
``v`` is a Python int (``.at[].set`` casts ``v`` to ``x``'s dtype; ``jnp.where``
with a Python float would make an int ``x`` float). Another mask or value makes
the fix unsafe; any other use of ``x[m]`` (its shape is the point) is
reported, with ``jnp.where`` and ``jnp.nonzero(..., size=n)`` as options.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Finding, shorten
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.gate.screen import Facts, qualified_spellings
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.boolean_arrays import ELEMENTWISE_TESTS, is_boolean
from jaxfix.transforms.semantics.constants import assigned_value, single_binding
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.purity import name_chain

CODE = "JAX308"
_WHERE = "jax.numpy.where"
_SUM = "jax.numpy.sum"
#: ``x.at[m].<method>(v)``: how ``jnp.where`` writes the value where the mask holds.
_UPDATES = {"set": "{v}", "add": "{x} + {v}", "multiply": "{x} * {v}"}
_EXPAND_DIMS = "jax.numpy.expand_dims"


class TracedMasks:
    """One module's JAX308 findings."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx

    def findings(self) -> Iterator[Finding]:
        found: list[tuple[cst.Subscript, Finding]] = []
        covered: set[int] = set()  # masked reads an update's fix rewrites with it (`_unmasked_value`)
        for node in self.ctx.nodes_of(cst.Subscript):
            mask = _single_index(node)
            if mask is not None:
                if is_boolean(self.ctx, mask) and self.analysis.traced.value_source(mask) is not None:
                    finding = self._finding(node, mask)
                    found.append((node, finding))
                    if finding.fix is not None and _at_base(node) is not None:
                        covered.update(id(r) for r in _value_reads(self.ctx, node))
                continue
            masked = _last_of_slices(node)
            if masked is not None and is_boolean(self.ctx, masked[1]) and self.analysis.traced.value_source(masked[1]) is not None:
                found.append((node, self._after_slices(node, *masked)))
                continue
            rows = _first_of_full_slices(node)
            if rows is not None and is_boolean(self.ctx, rows[0]) and self.analysis.traced.value_source(rows[0]) is not None:
                found.append((node, self._before_slices(node, *rows)))
        yield from (finding for node, finding in found if id(node) not in covered)

    def _finding(self, subscript: cst.Subscript, mask: cst.BaseExpression) -> Finding:
        ctx = self.ctx
        at = _at_base(subscript)
        base = at if at is not None else subscript.value
        shown = shorten(ctx.code(subscript))
        head = (
            f"`{shown}` indexes with a boolean mask computed from a tracer: its size depends on the data "
            "(NonConcreteBooleanIndexError)"
        )
        options = (
            "option: `jnp.where(mask, a, b)` keeps the array's shape and takes the mask as data",
            "option: `jnp.nonzero(mask, size=n, fill_value=...)` when at most n elements are wanted",
        )
        if not name_chain(base):
            return ctx.finding(CODE, subscript, f"{head}; not rewritten: `{shorten(ctx.code(base))}` would be evaluated again", notes=options)
        rewrite = self._update(subscript, base, mask) if at is not None else self._sum(subscript, base, mask)
        if rewrite is None:
            why = "the result's shape depends on the mask"
            other = next((r for r in _value_reads(ctx, subscript) if ctx.code(r.value) != ctx.code(base)), None)
            if other is not None:
                why = f"the value reads `{shorten(ctx.code(other))}`, another array through a mask, whose size depends on the data too"
            return ctx.finding(CODE, subscript, f"{head}; not rewritten: {why}", notes=options)
        replaced, text, unsure = rewrite
        spelled = planner(self.analysis).spell(_WHERE, subscript)
        if spelled is None:
            return ctx.finding(CODE, subscript, f"{head}; not rewritten: no name for jax.numpy is free here", notes=options)
        text = text.replace("jnp.where", spelled.text, 1)
        edits = [ctx.replace(replaced, text)]
        if spelled.edit is not None:
            edits.append(spelled.edit)
        if not _elementwise_of(ctx, mask, ctx.code(base)):
            unsure.insert(0, f"the mask is not computed element-wise from `{ctx.code(base)}`, so its shape may differ "
                             "(a mask of the leading axes selects rows, which `jnp.where` would broadcast)")
        notes = (f"unsafe: {unsure[0]}",) if unsure else ()
        return ctx.finding(
            CODE,
            subscript,
            f"{head}; the result keeps the array's shape, so it becomes `{shorten(text, 80)}`",
            tuple(edits),
            Applicability.UNSAFE if unsure else Applicability.SAFE,
            description=f"select with `{shorten(text, 80)}`",
            notes=notes,
        )

    def _after_slices(self, subscript: cst.Subscript, leading: str, mask: cst.BaseExpression) -> Finding:
        """``x.at[:4, m].set(v)``: the mask selects along the axis after the slices, so the
        update is ``x.at[:4].set(jnp.where(m, v, x[:4]))`` when the mask covers every axis after
        the slices (jax#21994), which is not proven here: unsafe. Anything else is reported."""
        ctx = self.ctx
        at = _at_base(subscript)
        head = _indexes_with_mask(ctx, subscript)
        options = (
            "option: `x.at[...].set(jnp.where(mask, v, x[...]))`: the slices select, the mask is data",
            "option: `jnp.nonzero(mask, size=n, fill_value=...)` when at most n elements are wanted",
        )
        rewrite = self._update(subscript, at, mask, leading) if at is not None and name_chain(at) else None
        spelled = planner(self.analysis).spell(_WHERE, subscript) if rewrite is not None else None
        if rewrite is None or spelled is None:
            return ctx.finding(CODE, subscript, f"{head}; not rewritten: only an update of a named array after slices is", notes=options)
        replaced, text, unsure = rewrite
        text = text.replace("jnp.where", spelled.text, 1)
        edits = (ctx.replace(replaced, text), spelled.edit) if spelled.edit is not None else (ctx.replace(replaced, text),)
        unsure.insert(0, "the mask must cover every axis after the slices, as `jnp.where` broadcasts it against what they select")
        return _unsafe_select(ctx, subscript, f"{head}; the slices select and the mask becomes data", text, edits, unsure)

    def _before_slices(self, subscript: cst.Subscript, mask: cst.BaseExpression, trailing: int) -> Finding:
        """``x.at[m, :].set(v)`` (pgx#379): the mask picks whole rows, so the update is
        ``jnp.where(jnp.expand_dims(m, -1), v, x)``: the mask, given an axis of length one for each
        full slice after it, broadcasts over what they keep. Unsafe: the mask must cover exactly the
        axes before the slices, which is not proven here. Anything else is reported."""
        ctx = self.ctx
        at = _at_base(subscript)
        head = _indexes_with_mask(ctx, subscript)
        options = (
            "option: `jnp.where(jnp.expand_dims(mask, -1), v, x)`: the mask, one axis longer, selects whole rows",
            "option: `jnp.nonzero(mask, size=n, fill_value=...)` when at most n rows are wanted",
        )
        axes = ", ".join(str(-i) for i in range(trailing, 0, -1))
        rewrite = self._update(subscript, at, mask) if at is not None and name_chain(at) else None
        plan = planner(self.analysis)
        spelled = plan.spell(_WHERE, subscript) if rewrite is not None else None
        expand = plan.spell(_EXPAND_DIMS, subscript) if rewrite is not None else None
        if rewrite is None or spelled is None or expand is None:
            return ctx.finding(CODE, subscript, f"{head}; not rewritten: only an update of a named array is", notes=options)
        replaced, text, unsure = rewrite
        widened = f"{expand.text}({ctx.code(mask)}, {axes if trailing == 1 else f'({axes})'})"
        text = text.replace(f"jnp.where({ctx.code(mask)}, ", f"{spelled.text}({widened}, ", 1)
        added = tuple(dict.fromkeys(e for e in (spelled.edit, expand.edit) if e is not None))
        edits = (ctx.replace(replaced, text), *added)
        unsure.insert(0, "the mask must cover exactly the axes before the full slices")
        return _unsafe_select(ctx, subscript, f"{head}; the mask picks whole rows, so it becomes data", text, edits, unsure)

    def _update(self, subscript: cst.Subscript, base: cst.BaseExpression, mask: cst.BaseExpression, leading: str | None = None):
        """``x.at[m].set(v)`` (and ``add``, ``multiply``) with one value and nothing else."""
        ctx = self.ctx
        method = ctx.parent(subscript)
        call = ctx.parent(method) if isinstance(method, cst.Attribute) else None
        if not isinstance(call, cst.Call) or call.func is not method or method.attr.value not in _UPDATES:  # type: ignore[union-attr]
            return None
        if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
            return None
        value = call.args[0].value
        x = ctx.code(base)
        v = _unmasked_value(ctx, value, base, mask) if leading is None else ctx.code(value)
        if v is None or (leading is not None and _masked_reads(ctx, value)):
            return None  # the value reads a mask otherwise than as the masked elements of `x`
        if leading is not None:
            x = f"{x}[{leading}]"  # the part the slices select: the where's fallback and operand
        if not isinstance(value, (cst.Name, cst.Integer, cst.Float, cst.Attribute, cst.UnaryOperation)):
            v = f"({v})"
        written = _UPDATES[method.attr.value].format(x=x, v=v)  # type: ignore[union-attr]
        unsure: list[str] = []
        if _masked_reads(ctx, value):
            unsure.append(
                f"`{x}[{ctx.code(mask)}]` is read as `{x}`: exact when every other operand of the value is a scalar, "
                "which broadcasts against any number of masked elements"
            )
        if not _python_int(value):
            unsure.append(f"`{ctx.code(value)}` is not a Python int: `.at[].{method.attr.value}` casts to the array's "  # type: ignore[union-attr]
                          "dtype, `jnp.where` promotes (an int array given a float becomes float)")
        selected = f"jnp.where({ctx.code(mask)}, {written}, {x})"
        if leading is not None:
            return call, f"{ctx.code(base)}.at[{leading}].set({selected})", unsure
        return call, selected, unsure

    def _sum(self, subscript: cst.Subscript, base: cst.BaseExpression, mask: cst.BaseExpression):
        """``x[m].sum()`` and ``jnp.sum(x[m])``: the masked-out elements add zero."""
        ctx = self.ctx
        parent = ctx.parent(subscript)
        selected = f"jnp.where({ctx.code(mask)}, {ctx.code(base)}, 0)"
        if isinstance(parent, cst.Attribute) and parent.value is subscript and parent.attr.value == "sum":
            call = ctx.parent(parent)
            if isinstance(call, cst.Call) and call.func is parent and not call.args:
                return subscript, selected, []
        if isinstance(parent, cst.Arg) and parent.keyword is None and not parent.star:
            call = ctx.parent(parent)
            if (
                isinstance(call, cst.Call)
                and ctx.names.qualified_name(call.func) == _SUM
                and len(call.args) == 1
            ):
                return subscript, selected, []
        return None


def _mask_names(facts: Facts) -> frozenset[str]:
    """Names the module assigns something `_may_be_mask` (``mask = jnp.arange(n) < k``): the
    stdlib-ast side of `is_boolean` following a name to its one binding."""
    return frozenset(
        node.targets[0].id
        for node in facts.nodes
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and _may_be_mask(facts, node.value, frozenset())
    )


def _may_be_mask(facts: Facts, node: ast.AST, masks: frozenset[str]) -> bool:
    """The stdlib-ast side of `boolean_arrays.is_boolean`: a call counts when its name, or any qualified name the
    module's imports may give it (``from jax.numpy import isnan as nan_test``), is an
    element-wise test."""
    if isinstance(node, ast.Compare):
        return True
    if isinstance(node, ast.Name):
        return node.id in masks
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        return _may_be_mask(facts, node.operand, masks)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
        return _may_be_mask(facts, node.left, masks) and _may_be_mask(facts, node.right, masks)
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        spelled = {q.rpartition(".")[2] for q in qualified_spellings(facts, func)}
        return bool(({name} | spelled) & ELEMENTWISE_TESTS)
    return False


def _single_index(node: cst.Subscript) -> cst.BaseExpression | None:
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    return node.slice[0].slice.value


def _last_of_slices(node: cst.Subscript) -> tuple[str, cst.BaseExpression] | None:
    """``x[:4, m]``: (the slices' text, the last index) when every element before it is a slice."""
    if len(node.slice) < 2 or not isinstance(node.slice[-1].slice, cst.Index):
        return None
    leading = node.slice[:-1]
    if not all(isinstance(e.slice, cst.Slice) for e in leading):
        return None
    return ", ".join(cst.Module([]).code_for_node(e.slice) for e in leading), node.slice[-1].slice.value


def _indexes_with_mask(ctx: ModuleContext, subscript: cst.Subscript) -> str:
    return (
        f"`{shorten(ctx.code(subscript))}` indexes with a boolean mask computed from a tracer: its size depends "
        "on the data (NonConcreteBooleanIndexError)"
    )


def _unsafe_select(ctx: ModuleContext, subscript: cst.Subscript, said: str, text: str, edits, unsure: list[str]) -> Finding:
    """The finding of an update rewritten into ``jnp.where`` whose mask's shape is not proven."""
    return ctx.finding(
        CODE,
        subscript,
        f"{said}: `{shorten(text, 80)}`",
        tuple(edits),
        Applicability.UNSAFE,
        description=f"select with `{shorten(text, 80)}`",
        notes=(f"unsafe: {unsure[0]}",),
    )


def _first_of_full_slices(node: cst.Subscript) -> tuple[cst.BaseExpression, int] | None:
    """``x[m, :]``: (the first index, how many full slices follow it) when every element after it
    is a bare ``:``."""
    if len(node.slice) < 2 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    trailing = node.slice[1:]
    if not all(
        isinstance(e.slice, cst.Slice) and e.slice.lower is None and e.slice.upper is None and e.slice.step is None
        for e in trailing
    ):
        return None
    return node.slice[0].slice.value, len(trailing)


def _at_base(subscript: cst.Subscript) -> cst.BaseExpression | None:
    """``x`` of ``x.at[m]``, else None."""
    value = subscript.value
    if isinstance(value, cst.Attribute) and value.attr.value == "at":
        return value.value
    return None


def _elementwise_of(ctx: ModuleContext, mask: cst.BaseExpression, base: str, depth: int = 0) -> bool:
    """Every array the mask reads is `base` itself, the others Python numbers: it has base's shape."""
    if isinstance(mask, (cst.Integer, cst.Float)):
        return True
    if isinstance(mask, cst.UnaryOperation):
        return _elementwise_of(ctx, mask.expression, base)
    if isinstance(mask, cst.Comparison):
        return all(_elementwise_of(ctx, p, base) for p in (mask.left, *(c.comparator for c in mask.comparisons)))
    if isinstance(mask, cst.BinaryOperation):
        return _elementwise_of(ctx, mask.left, base) and _elementwise_of(ctx, mask.right, base)
    if isinstance(mask, cst.Call):
        return is_boolean(ctx, mask) and all(not a.star and a.keyword is None and _elementwise_of(ctx, a.value, base) for a in mask.args)
    if isinstance(mask, cst.Name) and mask.value != base and depth < 4:
        # `min_indices = phase < phase_min` then `phase.at[min_indices]`: the mask that name holds
        binding = single_binding(ctx, mask)
        value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
        same = value is not None and ctx.enclosing_function(binding) is ctx.enclosing_function(mask)
        return same and _elementwise_of(ctx, value, base, depth + 1)  # type: ignore[arg-type]
    return name_chain(mask) and ctx.code(mask) == base


#: jax.numpy functions that compute each element from the same element of their inputs.
_ELEMENTWISE = frozenset(
    f"jax.numpy.{name}"
    for name in (
        "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "exp", "exp2",
        "expm1", "log", "log1p", "log2", "log10", "sqrt", "cbrt", "square", "abs", "absolute", "sign", "floor",
        "ceil", "round", "rint", "trunc", "mod", "remainder", "fmod", "floor_divide", "true_divide", "divide",
        "multiply", "add", "subtract", "power", "maximum", "minimum", "clip", "hypot", "negative", "reciprocal",
    )
)


def _value_reads(ctx: ModuleContext, subscript: cst.Subscript) -> list[cst.Subscript]:
    """The masked reads in the value of the update ``x.at[m].set(value)`` `subscript` starts."""
    call = ctx.parent(ctx.parent(subscript))
    return [r for a in getattr(call, "args", ()) for r in _masked_reads(ctx, a.value)] if isinstance(call, cst.Call) else []


def _masked_reads(ctx: ModuleContext, value: cst.BaseExpression) -> list[cst.Subscript]:
    """The ``y[m]`` reads with a boolean mask inside `value`."""
    return [s for s in ctx.descendants(value, cst.Subscript) if (i := _single_index(s)) is not None and is_boolean(ctx, i)]


def _unmasked_value(ctx: ModuleContext, value: cst.BaseExpression, base: cst.BaseExpression, mask: cst.BaseExpression) -> str | None:
    """`value`'s text with each ``x[m]`` of the update's own array and mask read as ``x``
    (chromatix's ``phase.at[m].set(phase[m] + 2 * jnp.pi * ...)``): ``jnp.where(m, v, x)`` keeps
    the elements where the mask holds, each computed from the same element of ``x``, when what
    surrounds such a read is element-wise (operators, `_ELEMENTWISE` calls, plain names and
    numbers); None when a mask is read any other way."""
    reads = _masked_reads(ctx, value)
    if not reads:
        return ctx.code(value)
    x, m = ctx.code(base), ctx.code(mask)
    if any(ctx.code(r.value) != x or ctx.code(_single_index(r)) != m for r in reads):  # type: ignore[arg-type]
        return None
    if not _elementwise_around(ctx, value, reads):
        return None
    text, start = ctx.code(value), ctx.start(value)
    for read in sorted(reads, key=ctx.start, reverse=True):
        text = text[: ctx.start(read) - start] + x + text[ctx.end(read) - start :]
    return text


def _elementwise_around(ctx: ModuleContext, node: cst.BaseExpression, reads: list[cst.Subscript]) -> bool:
    if any(node is r for r in reads) or isinstance(node, (cst.Integer, cst.Float, cst.Name)):
        return True
    if isinstance(node, cst.Attribute):
        return name_chain(node)  # `jnp.pi`, `self.scale`: a value as it is
    if isinstance(node, cst.UnaryOperation):
        return _elementwise_around(ctx, node.expression, reads)
    if isinstance(node, cst.BinaryOperation):
        return _elementwise_around(ctx, node.left, reads) and _elementwise_around(ctx, node.right, reads)
    if isinstance(node, cst.Call):
        return ctx.names.qualified_name(node.func) in _ELEMENTWISE and all(
            a.keyword is None and not a.star and _elementwise_around(ctx, a.value, reads) for a in node.args
        )
    return False


def _python_int(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        return _python_int(expr.expression)
    return isinstance(expr, cst.Integer)


class TracedBooleanMask308(Rule):
    """A boolean mask computed from a traced array, used as an index.

    The size of ``x[x < 5]`` depends on the data, so jit (and vmap, a scan
    body) cannot index with a traced mask, nor update through one::

        @jax.jit
        def f(x):
            return x.at[x < 5].set(0)
        # jax.errors.NonConcreteBooleanIndexError: Array boolean indices must be concrete

    Where the result keeps the array's shape, ``jnp.where`` takes the mask
    as data and computes the same::

            return jnp.where(x < 5, 0, x)

    Fixed: ``.at[m].set(v)``, ``.add(v)``, ``.multiply(v)``, ``x[m].sum()``,
    ``jnp.sum(x[m])``; safe when the mask is computed element-wise from the
    array itself and ``v`` is a Python int, unsafe otherwise (a ``v`` that
    reads the masked elements, ``phase.at[m].set(phase[m] + 2 * jnp.pi)``,
    reads ``phase`` itself when it is computed element by element); ``x.at[:4, m].set(v)``
    becomes ``x.at[:4].set(jnp.where(m, v, x[:4]))``, unsafe (the mask must cover
    every axis after the slices); ``x.at[m, :].set(v)``, a mask of whole rows,
    becomes ``jnp.where(jnp.expand_dims(m, -1), v, x)``, unsafe (the mask must
    cover the axes before the full slices). Reported: any other use of ``x[m]``.
    Valid: a mask outside any trace (NumPy, or eager JAX), where its size is
    known.
    """

    code = CODE
    name = "traced-boolean-mask"
    summary = "a boolean mask computed from a tracer is used as an index (size depends on data): select with jnp.where"
    required = (("jax",), ("[",))
    follows_callees = True

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """Subscripts whose index may be a boolean mask (`boolean_arrays.is_boolean` in stdlib ast): a comparison, an
        element-wise test's call, ``~``/``&``/``|``/``^`` of those; not ``x[i + 1]`` nor ``x[f(i)]``,
        so that an ordinary index costs no libcst parse."""
        masks = _mask_names(facts)
        return [
            n
            for n in facts.nodes
            if isinstance(n, ast.Subscript)
            and (
                _may_be_mask(facts, n.slice, masks)
                or (
                    isinstance(n.slice, ast.Tuple)
                    and n.slice.elts
                    and (_may_be_mask(facts, n.slice.elts[-1], masks) or _may_be_mask(facts, n.slice.elts[0], masks))
                )
            )
        ]

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return TracedMasks(analysis).findings()
