"""JAX310: NumPy, or a Python list, handed a tracer where jax.numpy would take it.

NumPy computes on concrete values: ``np.cos(t)`` asks a tracer for its
array (TracerArrayConversionError), ``np.zeros(3)[t]`` and ``weights[t]``
of a Python list ask it for an index (TracerArrayConversionError,
TracerIntegerConversionError). Under jit, vmap or a control-flow body the
program meant the jax.numpy computation, whose twin takes tracers:
``jnp.cos(t)``, ``jnp.asarray(np.zeros(3))[t]``, ``jnp.asarray(weights)[t]``
(netket#908, tinygp#81, jax#2304, jax#3133).

Two obligations. The NumPy function must have a jax.numpy twin that
computes the same (`numpy_twins.TWINS`: element-wise math, reductions and the shape
functions whose defaults agree). And the function the call is in must run
only traced: called directly it computed NumPy's float64 result, which the
twin would make a float32 jax array (unsafe then). An indexing result must
go where an array serves (`array_destinations`): ``range(weights[t])``
still needs the Python int, which JAX304 reports.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Applicability, Edit, Finding, shorten
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.gate.screen import Facts, qualified_spellings
from jaxfix.transforms.rules.jax310_numpy_on_traced_value.scipy_callbacks import CALLBACKS, jnp_in_scipy_callback
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_destinations import unknown_destination
from jaxfix.transforms.semantics.array_values import made_array
from jaxfix.transforms.semantics.class_hashing import runs_as_written, static_method
from jaxfix.transforms.semantics.constants import assigned_value, binding_value, own_returns, single_binding
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode
from jaxfix.transforms.semantics.numpy_twins import NUMPY, delegates, has_twin, twin
from jaxfix.transforms.semantics.optax_schedules import OPTAX_SCHEDULE
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, call_argument
from jaxfix.transforms.semantics.staged_values import staged_tracer
from jaxfix.transforms.semantics.vocabulary import TREE_MAP

CODE = "JAX310"


class NumpyOnTracers:
    """One module's JAX310 findings."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx

    def findings(self) -> Iterator[Finding]:
        ctx = self.ctx
        for call in ctx.calls:
            qualified = ctx.names.qualified_name(call.func) or ""
            if qualified in CALLBACKS:
                found = jnp_in_scipy_callback(self.analysis, call, CODE)
                if found is not None:
                    yield found
                continue
            if twin(qualified, call) is None:
                continue
            traced = next((a.value for a in call.args if not a.star and self._handed_tracer(a.value)), None)
            if traced is not None and delegates(qualified) and traced is call.args[0].value and not isinstance(
                traced, (cst.List, cst.Tuple, cst.ListComp, cst.GeneratorExp)
            ):
                continue  # `np.sum(t)` calls `t.sum()`: it works on a tracer
            if traced is not None:
                yield self._twin(call, qualified, traced)
        for subscript in ctx.nodes_of(cst.Subscript):
            index = next((e.slice.value for e in subscript.slice if isinstance(e.slice, cst.Index) and self._tracer(e.slice.value)), None)
            if index is None:
                continue
            held = self._sequence(subscript.value)
            found = self._indexed(subscript, index, *held) if held is not None else None
            if found is not None:
                yield found

    def _tracer(self, expr: cst.BaseExpression) -> str | None:
        source = self.analysis.traced.source(expr)
        return source.reason if source is not None else None

    def _handed_tracer(self, expr: cst.BaseExpression) -> str | None:
        """Why NumPy is handed a tracer in `expr`: the value itself, or an element of a list,
        tuple or comprehension of them (``np.stack([d[k] for k in keys])``). Any tracer fails
        there, one under grad alone too, whose concrete value Python could read
        (docs/jax310-behaviour.md, B)."""
        if isinstance(expr, (cst.List, cst.Tuple)):
            return next((r for e in expr.elements if not isinstance(e, cst.StarredElement) and (r := self._handed_tracer(e.value))), None)
        if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
            return self._handed_tracer(expr.elt)
        source = self.analysis.traced.value_source(expr, abstract=False)
        return source.reason if source is not None else staged_tracer(self.analysis, expr)

    def _twin(self, call: cst.Call, qualified: str, traced: cst.BaseExpression) -> Finding:
        ctx = self.ctx
        library = "NumPy" if qualified.startswith(NUMPY) else "SciPy"
        head = (
            f"`{shorten(ctx.code(call))}` hands {library} `{shorten(ctx.code(traced))}`, "
            f"{'a tracer' if not isinstance(traced, (cst.List, cst.Tuple, cst.ListComp, cst.GeneratorExp)) else 'which holds a tracer'} "
            f"({self._handed_tracer(traced)}): {library} needs a concrete array (TracerArrayConversionError)"
        )
        spelled = planner(self.analysis).spell(twin(qualified, call) or "", call)
        if spelled is None:
            return ctx.finding(CODE, call, f"{head}; not rewritten: no name for its JAX twin is free here")
        return self._rewritten(
            call, ctx.replace(call.func, spelled.text), spelled.edit, self._eager(call),
            f"{head}; its JAX twin computes the same on tracers: `{spelled.text}`", f"use `{spelled.text}`",
        )

    def _indexed(self, subscript: cst.Subscript, index: cst.BaseExpression, held: str, shapes: str) -> Finding | None:
        """The rewrite to a jax array; None where it would not serve (the index of a list is
        JAX304's report then, or JAX302's when the index is a jitted parameter). `jnp.asarray`
        stacks the elements: a report where they are seen to differ in shape (arrays of 10 and 20
        rows, jax#19506: no array holds them), unsafe where their shapes are not seen (`_shapes`)."""
        ctx = self.ctx
        base = subscript.value
        head = (
            f"`{shorten(ctx.code(subscript))}` indexes {held} with `{shorten(ctx.code(index))}`, a tracer "
            f"({self._tracer(index)}): only a jax array takes a traced index"
        )
        eager = self._eager(subscript)
        goes = unknown_destination(ctx, self.analysis.traces, subscript)
        if goes is not None and eager is None:
            return None
        if shapes == RAGGED:
            return ctx.finding(
                CODE, subscript,
                f"{head}; not rewritten: its elements differ in shape, and `jnp.asarray` stacks them into one "
                "array (pad them to one shape, or restructure the data)",
            )
        unsure = eager
        if shapes == UNSEEN:
            unsure = unsure or (
                "its elements must share one shape, which `jnp.asarray` needs to stack them (a ragged list "
                "fails there), and theirs are not seen"
            )
        spelled = planner(self.analysis).spell("jax.numpy.asarray", subscript)
        if spelled is None:
            return None
        text = f"{spelled.text}({ctx.code(base)})"
        # A direct call gets a jax array where it got NumPy's (or the list's element): `eager`.
        return self._rewritten(
            subscript, ctx.replace(base, text), spelled.edit, unsure,
            f"{head}; as a jax array it does: `{shorten(text, 60)}[...]`", f"index `{shorten(text, 60)}`",
        )

    def _rewritten(
        self, node: cst.CSTNode, edit: Edit, added: Edit | None, unsure: str | None, message: str, description: str
    ) -> Finding:
        """The finding with its edit (and the import it adds), unsafe with the reason given."""
        return self.ctx.finding(
            CODE,
            node,
            message,
            (edit, added) if added is not None else (edit,),
            Applicability.UNSAFE if unsure else Applicability.SAFE,
            description=description,
            notes=(f"unsafe: {unsure}",) if unsure else (),
        )

    def _eager(self, node: cst.CSTNode, seen: frozenset = frozenset()) -> str | None:
        """Why the enclosing function may also run eagerly, where NumPy's result was float64.
        `seen`: the functions already asked on this chain of direct calls (recursion ends it)."""
        fn = self.ctx.enclosing_function(node)
        routes = self.analysis.traces.routes(fn) if fn is not None else None
        if routes is None:
            return "the uses of the function cannot all be listed"
        for route in routes:
            if route.wraps and route.wraps[-1].name == OPTAX_SCHEDULE:
                return "the optimizer's `update` may also run eagerly, where NumPy's result was float64"
            if route.call is None:
                continue
            if not route.wraps and self._outside_traces(route.call, seen | {fn}):
                line = self.ctx.span(route.call).start.line
                return f"the function is also called directly (line {line}), where NumPy's result was float64"
            if route.wraps and all(w.name == TREE_MAP for w in route.wraps):
                # `tree_map(f, tree)` calls f right there with the caller's values: eager where it is.
                caller = self.ctx.enclosing_function(route.call)
                if caller is None:
                    line = self.ctx.span(route.call).start.line
                    return f"`tree_map` calls it at module level (line {line}), where NumPy's result was float64"
                if caller not in seen:
                    reason = self._eager(route.call, seen | {fn})
                    if reason is not None:
                        return reason
        return None

    def _outside_traces(self, call: cst.Call, seen: frozenset) -> bool:
        """A direct call written where nothing traces (module code, or an eager function); a call
        from a function already on the chain is one more round of a recursion, not a way in."""
        fn = self.ctx.enclosing_function(call)
        if fn in seen:
            return False
        return fn is None or not self.analysis.traces.routes(fn) or self._eager(call, seen) is not None

    def _sequence(self, expr: cst.BaseExpression, depth: int = 0) -> tuple[str, str] | None:
        """("a Python list"/"a NumPy array", what is seen of its elements' shapes: `_shapes`) when
        `expr` surely is one: a literal, a NumPy maker's call, a name bound once to one, a call of
        a def whose one return is one, or a parameter every call passes one."""
        ctx = self.ctx
        if depth > 4:
            return None
        if isinstance(expr, (cst.List, cst.Tuple)):
            held = "a Python list" if isinstance(expr, cst.List) else "a Python tuple"
            return held, _shapes(ctx, expr)
        if isinstance(expr, cst.ListComp):
            return "a Python list", UNSEEN
        if isinstance(expr, cst.Call):
            qualified = ctx.names.qualified_name(expr.func) or ""
            if made_array(qualified) == "a NumPy array":
                return "a NumPy array", ONE
            if isinstance(expr.func, cst.Name):
                fn = single_binding(ctx, expr.func)
            else:
                fn = static_method(ctx, expr.func) if isinstance(expr.func, cst.Attribute) else None
            returns = own_returns(fn) if isinstance(fn, cst.FunctionDef) and runs_as_written(ctx, fn) else []
            if len(returns) == 1 and returns[0].value is not None:
                return self._sequence(returns[0].value, depth + 1)
            return None
        if isinstance(expr, cst.Name):
            binding = single_binding(ctx, expr)
            if isinstance(binding, cst.Param):
                return self._passed(binding, depth)
            value = assigned_value(ctx, binding) if isinstance(binding, cst.Name) else None
            return self._sequence(value, depth + 1) if value is not None else None
        return None

    def _passed(self, param: cst.Param, depth: int) -> tuple[str, str] | None:
        """What every call of the parameter's function passes it, when that is one sequence kind."""
        ctx = self.ctx
        fn: FunctionNode | None = ctx.enclosing_function(param)
        routes = self.analysis.traces.routes(fn) if fn is not None else None
        if not routes:
            return None
        signature = function_info(ctx, fn).signature  # type: ignore[arg-type]
        kinds: set[str] = set()
        shapes: set[str] = set()
        for route in routes:
            if route.call is None or route.escapes or route.uncertain:
                return None
            argument = call_argument(route.call, signature, param.name.value, bound=route.bound, consumed=route.consumed)
            if argument is DEFAULT or not isinstance(argument, cst.BaseExpression):
                return None
            found = self._sequence(argument, depth + 1)
            if found is None:
                return None
            kinds.add(found[0])
            shapes.add(found[1])
        shape = RAGGED if RAGGED in shapes else UNSEEN if UNSEEN in shapes else ONE
        return (kinds.pop(), shape) if len(kinds) == 1 else None


#: Calls that make one number (a Python or NumPy scalar): elements `jnp.asarray` stacks as scalars.
_SCALAR_MAKERS = frozenset(
    {"float", "int", "bool", "complex"}
    | {f"numpy.{t}" for t in ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint32", "bool_")}
)


#: What `_shapes` sees of a list's elements.
ONE, UNSEEN, RAGGED = "one shape", "shapes not seen", "shapes differ"


def _shapes(ctx, sequence: cst.List | cst.Tuple) -> str:
    """ONE where the literal's elements surely share one shape (all numbers, or rows of numbers of
    one length, or arrays whose makers show one shape), RAGGED where two are seen to differ (rows of
    other lengths, ``rng.rand(10, 3)`` beside ``rng.rand(20, 3)``), UNSEEN otherwise."""
    values = [e.value for e in sequence.elements if not isinstance(e, cst.StarredElement)]
    if len(values) != len(sequence.elements):
        return UNSEEN
    if all(_number(ctx, v) for v in values):
        return ONE
    rows = [v for v in values if isinstance(v, (cst.List, cst.Tuple))]
    if len(rows) == len(values) and all(
        not isinstance(e, cst.StarredElement) and _number(ctx, e.value) for r in rows for e in r.elements
    ):
        return ONE if len({len(r.elements) for r in rows}) == 1 else RAGGED
    seen = [_made_shape(ctx, v) for v in values]
    known = {shape for shape in seen if shape is not None}
    if len(known) > 1:
        return RAGGED
    return ONE if known and None not in seen else UNSEEN


#: Array makers whose call writes out the shape, and where: "first" (an int or a tuple of ints,
#: ``jnp.zeros((2, 3))``), "second" (``jax.random.normal(key, (2, 3))``) or "all" (every positional
#: argument a dimension, ``np.random.rand(10, 3)``); by qualified name, since ``np.random.normal``'s
#: second argument is a scale, not a shape.
_SHAPED_MAKERS = {
    **{f"{module}.{name}": "first" for module in ("numpy", "jax.numpy") for name in ("zeros", "ones", "empty", "full")},
    "jax.random.normal": "second",
    "jax.random.uniform": "second",
    "numpy.random.rand": "all",
    "numpy.random.randn": "all",
}
#: Methods of a ``numpy.random.RandomState`` that take the dimensions alone (``rng.rand(10, 3)``).
_STATE_DIMENSIONS = frozenset({"rand", "randn"})


def _maker(ctx, func: cst.BaseExpression) -> str | None:
    """Where `func`'s call writes its shape (`_SHAPED_MAKERS`), also as a method of a name bound
    to ``np.random.RandomState(...)``; None for any other callee."""
    found = _SHAPED_MAKERS.get(ctx.names.qualified_name(func) or "")
    if found is None and isinstance(func, cst.Attribute) and func.attr.value in _STATE_DIMENSIONS:
        state = binding_value(ctx, func.value) if isinstance(func.value, cst.Name) else None
        if isinstance(state, cst.Call) and ctx.names.qualified_name(state.func) == "numpy.random.RandomState":
            found = "all"
    return found


def _made_shape(ctx, expr: cst.BaseExpression, depth: int = 0) -> tuple[int, ...] | None:
    """The shape of the array an array maker's call (`_maker`) writes out in literals (followed
    through a name bound once), or None."""
    if isinstance(expr, cst.Name) and depth < 4:
        value = binding_value(ctx, expr)
        return _made_shape(ctx, value, depth + 1) if value is not None else None
    if not isinstance(expr, cst.Call) or any(a.star for a in expr.args):
        return None
    where = _maker(ctx, expr.func)
    positional = [a.value for a in expr.args if a.keyword is None]
    if where == "all":
        return _ints(cst.Tuple([cst.Element(v) for v in positional])) if positional else None
    if where is None:
        return None
    shape = next((a.value for a in expr.args if a.keyword is not None and a.keyword.value == "shape"), None)
    if shape is None:
        at = 0 if where == "first" else 1
        shape = positional[at] if len(positional) > at else None
    return _ints(shape) if shape is not None else None


def _ints(expr: cst.BaseExpression) -> tuple[int, ...] | None:
    """An int literal as a one-element shape, or a tuple or list of int literals."""
    if isinstance(expr, cst.Integer):
        return (int(expr.evaluated_value),)
    if isinstance(expr, (cst.Tuple, cst.List)) and all(
        isinstance(e, cst.Element) and isinstance(e.value, cst.Integer) for e in expr.elements
    ):
        return tuple(int(e.value.evaluated_value) for e in expr.elements)  # type: ignore[attr-defined]
    return None


def _number(ctx, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """A Python or NumPy scalar: a literal, a negated one, a scalar maker's call, or a name bound
    once to one."""
    if isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary)):
        return True
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        return _number(ctx, expr.expression, depth)
    if isinstance(expr, cst.Call):
        return (ctx.names.qualified_name(expr.func) or "") in _SCALAR_MAKERS
    if isinstance(expr, cst.Name) and depth < 4:
        if expr.value in ("True", "False"):
            return True
        value = binding_value(ctx, expr)
        return value is not None and _number(ctx, value, depth + 1)
    return False


def _listy_names(facts: Facts) -> frozenset[str]:
    """Names `_sequence` may prove hold a list or a NumPy array: bound to a list or tuple literal
    or a call, and every parameter (a call may pass one)."""
    out: set[str] = set()
    for node in facts.nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if isinstance(node.value, (ast.List, ast.Tuple, ast.Call)):
                out.add(node.targets[0].id)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
    return frozenset(out)


class NumpyOnTracedValue310(Rule):
    """NumPy, or a Python list, handed a tracer where jax.numpy would take it.

    NumPy needs concrete values; under jit the program meant jax.numpy::

        def schedule(n):
            return (1 + np.cos(pi * (n % restart) / restart)) * lr
        # jax.errors.TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array

    jax.numpy's twin computes the same on a tracer, and a list or NumPy array
    indexed by a tracer becomes a jax array first::

            return (1 + jnp.cos(pi * (n % restart) / restart)) * lr
            return jnp.asarray(weights)[idx]

    Unsafe when the function is also called directly (NumPy's float64 there
    becomes float32). An indexed element that goes where a Python value may
    be needed is left to JAX304's report; a list whose elements may differ in
    shape is reported, not stacked. The other way round, a function only SciPy
    calls back (``quad(fn, a, b)``) that computes with jax.numpy while a jit
    traces gives SciPy tracers: it computes with NumPy's twins
    (`scipy_callbacks`). Valid: NumPy on static values (shapes, Python
    numbers) inside jit, NumPy outside any trace, a jnp integrand run eagerly.
    """

    code = CODE
    name = "numpy-on-traced-value"
    summary = "NumPy (or a Python list) is handed a tracer: use jax.numpy's twin, or index a jax array"
    required = (("jax",), ("numpy", "[")) 
    follows_callees = True

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """Calls of a NumPy function with a jax.numpy twin; subscripts of a NumPy call, or of a
        parameter or a name bound to a list, tuple or call, by an index that is no constant."""
        listy = _listy_names(facts)
        out: list[ast.AST] = []
        for node in facts.nodes:
            if isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name)):
                if any(has_twin(q) or q in CALLBACKS for q in qualified_spellings(facts, node.func)):
                    out.append(node)
            elif isinstance(node, ast.Subscript) and not isinstance(node.slice, (ast.Constant, ast.Slice)):
                base = node.value
                if (isinstance(base, ast.Name) and base.id in listy) or (
                    isinstance(base, ast.Call) and any(q.startswith(NUMPY) for q in qualified_spellings(facts, base.func))
                ):
                    out.append(node)
        return [*out, *facts.optimizer_updates] if out else []  # NumPy in an optax schedule: the jitted step too

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return NumpyOnTracers(analysis).findings()
