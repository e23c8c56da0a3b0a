"""JAX405 transform-traces-python-value: checkpoint, vmap, pmap, make_jaxpr or eval_shape trace a Python value.

The situations and the facts behind each repair are in the rule's docstring and in
docs/jax405-behaviour.md. Repairs, tried in order for one call:

1. pass positionally: the argument's position is listed in the transform's static
   option, but the call passes it by keyword (checkpoint and pmap count positions only);
2. bind by keyword: the transform is applied right at the call, ``T(f)(x, flag=False)``,
   so ``T(partial(f, flag=False))(x)`` gives f the same value, never traced;
3. make it static: ``T(f)(x, 2)`` gains ``static_argnums=(1,)`` (checkpoint, make_jaxpr),
   ``static_broadcasted_argnums`` (pmap) or ``in_axes=(0, None)`` (vmap), the option
   written at this one call, or on ``g = T(f)`` when every call of ``g`` passes a Python
   value there, positionally (and, for vmap, as many positional arguments);
4. ``jax.eval_shape(f, x, "SAME")``: the trailing Python values go into a lambda.

Anything else (the transformed function is called from several places, the value is
not surely a Python value) is a report with the options.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Edit, Finding, shorten
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.edits.call_arguments import remove_args
from jaxfix.transforms.edits.fresh_names import names_in
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.gate.screen import Facts, qualified_spellings
from jaxfix.transforms.repairs.select_with_where import answers_only_for_arrays, select
from jaxfix.transforms.rules.jax405_transform_traces_python_value.equinox_vmap import equinox_vmap_findings
from jaxfix.transforms.rules.jax405_transform_traces_python_value.function_carry import (
    function_carry_findings,
    function_carry_seeds,
)
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.broadcast_values import repeated_python_value
from jaxfix.transforms.semantics.concrete_uses import ConcreteUses, Need
from jaxfix.transforms.semantics.constants import NOT_CONSTANT, constant_value
from jaxfix.transforms.semantics.jit_signature import Kind as ParamKind
from jaxfix.transforms.semantics.jit_signature import Signature
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.module import FunctionNode, ModuleContext
from jaxfix.transforms.semantics.passed_arguments import call_argument
from jaxfix.transforms.semantics.python_values import NotStatic, ValueKind, python_value
from jaxfix.transforms.semantics.tracing import Route, Wrap
from jaxfix.transforms.semantics.transform_options import (
    STATIC_OPTION,
    Treatment,
    in_axes,
    in_axes_text,
    is_python_value,
    option_arg,
    passed_python_value,
    static_positions,
    surely_of,
    treatment,
)
from jaxfix.transforms.semantics.vocabulary import CHECKPOINT, JIT, PARTIAL

EVAL_SHAPE = "jax.eval_shape"


@dataclass(frozen=True)
class _Problem:
    """One argument of a call that the transform traces, and why that fails."""

    param: str
    arg: cst.Arg
    #: Its position among the call's positional arguments (None: by keyword).
    position: int | None
    treatment: Treatment
    value_text: str
    why: str
    #: The call passes an array: no rewrite keeps its meaning (one value per example, or traced data).
    array: bool = False
    #: The Python value an array built to repeat it holds (`broadcast_values`): the call passes it instead.
    repeated: cst.BaseExpression | None = None


def _movable(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    """Evaluating it earlier or later gives the same value and does nothing else."""
    if constant_value(ctx, expr) is not NOT_CONSTANT:
        return True
    while isinstance(expr, cst.Attribute):
        expr = expr.value
    return isinstance(expr, cst.Name)


class TransformedCalls:
    """One module's JAX405 findings."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx
        self.uses = ConcreteUses(self.ctx, strict=True)

    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        seen: set[int] = set()
        functions = [*self.ctx.nodes_of(cst.FunctionDef), *self.ctx.nodes_of(cst.Lambda)]
        for fn in sorted(functions, key=self.ctx.start):
            for route in self.analysis.traces.routes(fn) or ():
                found = self._route(fn, route)
                if found is not None and id(route.call) not in seen:
                    seen.add(id(route.call))
                    out.append(found)
        for call in self.ctx.calls:
            if self.ctx.names.qualified_name(call.func) == EVAL_SHAPE:
                found = self._eval_shape(call)
                if found is not None:
                    out.append(found)
        return out

    # -- a call through transforms ------------------------------------------------------
    def _route(self, fn: FunctionNode, route: Route) -> Finding | None:
        call = route.call
        if call is None or route.escapes or route.uncertain or route.bound:
            return None
        if any(a.star for a in call.args):
            return None
        if not surely_of(self.analysis, fn, route):
            return None  # the name is bound more than once: this use may be another function
        layers = [w for w in route.wraps if w.name in STATIC_OPTION]
        if not layers or any(w.name not in STATIC_OPTION and w.name != JIT for w in route.wraps):
            return None
        sig = function_info(self.ctx, fn).signature  # the routes know the decorators: each is a layer
        problems: list[_Problem] = []
        layer = layers[0]
        for param in sig.params:
            if param.kind in (ParamKind.VAR_POSITIONAL, ParamKind.VAR_KEYWORD):
                continue
            expr = call_argument(call, sig, param.name, bound=False)
            if not isinstance(expr, cst.BaseExpression):
                continue
            problem = self._problem(fn, sig, route, call, param.name, expr)
            if problem is not None:
                problems.append(problem[0])
                layer = problem[1]
        captured = next((p for p in sig.params if p.kind is ParamKind.VAR_KEYWORD), None)
        if captured is not None:
            named = {p.name for p in sig.params}
            for arg in call.args:
                if arg.keyword is not None and arg.keyword.value not in named:
                    problem = self._problem(fn, sig, route, call, arg.keyword.value, arg.value)
                    if problem is not None:
                        problems.append(problem[0])
                        layer = problem[1]
        if not problems:
            return None
        return self._repair(fn, sig, route, layer, problems)

    def _problem(
        self, fn: FunctionNode, sig: Signature, route: Route, call: cst.Call, param: str, expr: cst.BaseExpression
    ) -> tuple[_Problem, Wrap] | None:
        ctx = self.ctx
        arg = next(a for a in call.args if a.value is expr)
        positional = [a for a in call.args if a.keyword is None]
        position = positional.index(arg) if arg.keyword is None else None
        param_index = sig.positional_index(param)
        traced_by: tuple[Wrap, Treatment] | None = None
        static_on_jit = False
        for wrap in route.wraps:  # innermost first
            if wrap.name == JIT:
                if wrap.jit is None or wrap.jit.spec is None or param not in wrap.jit.spec.declared_static(sig):
                    return None  # jit traces it too (JAX302's), or cannot tell
                static_on_jit = True
                continue
            how = treatment(ctx, wrap.name, wrap.options if isinstance(wrap.options, cst.Call) else None, position, param_index)
            if how is Treatment.UNKNOWN:
                return None
            if how is not Treatment.STATIC and traced_by is None:
                if static_on_jit:
                    return None  # an outer transform traces a jitted function's static argument: JAX401's
                traced_by = (wrap, how)
        if traced_by is None:
            return None
        wrap, how = traced_by
        constant, value = passed_python_value(self.analysis, expr)
        repeated = repeated_python_value(self.analysis, expr) if how is Treatment.MAPPED else None
        if repeated is not None:
            use = self.uses.first_need(fn, param)
            if use is None or use.need is not Need.NEEDS:
                return None
            why = (
                f"`{wrap.name}` maps `{param}`, an array that repeats the Python value `{ctx.code(repeated)}` for every "
                f"example, but {use.reason}"
            )
            return _Problem(param, arg, position, how, ctx.code(expr), why, repeated=repeated), wrap
        if constant is NOT_CONSTANT and value is None:
            passed = python_value(self.analysis, expr)
            if isinstance(passed, NotStatic) and passed.certain and "array" in passed.reason:
                use = self.uses.first_need(fn, param)
                if use is None or use.need is not Need.NEEDS or not use.static_option:
                    return None  # a size, a count or a static parameter: JAX301's, JAX302's or JAX404's to say
                verb = "maps" if how is Treatment.MAPPED else "traces"
                why = f"`{wrap.name}` {verb} `{param}`, an array at this call, but {use.reason}"
                return _Problem(param, arg, position, how, ctx.code(expr), why, array=True), wrap
            return None
        if constant is None:
            return None  # None is a pytree with no leaves: nothing is traced
        text = ctx.code(expr)
        name = wrap.name
        why = ""
        if how is Treatment.STATIC_BY_POSITION_ONLY:
            option = STATIC_OPTION[wrap.name]
            why = f"`{name}`'s {option} counts positional arguments only, and the call passes `{param}` by keyword"
        elif isinstance(constant, str) or (value is not None and value.kind is ValueKind.CALLABLE):
            what = "a string" if isinstance(constant, str) else "a function"
            why = f"`{name}` traces `{param}`, and {what} cannot be traced"
        elif how is Treatment.MAPPED and (isinstance(constant, (int, float, bool)) or (value is not None and value.kind is ValueKind.NUMBER)):
            why = f"`{name}` maps `{param}` along axis 0, and a Python scalar has no axis to map"
        else:
            use = self.uses.first_need(fn, param)
            if use is None or use.need is not Need.NEEDS:
                return None
            if name in CHECKPOINT and self._selected(fn, use.node):
                return None  # an `if` whose arms `jnp.where` selects between: JAX305's, right for every value
            why = f"`{name}` traces `{param}`, but {use.reason}"
        return _Problem(param, arg, position, how, text, why), wrap

    def _selected(self, fn: FunctionNode, test: cst.CSTNode) -> bool:
        """`test` is an ``if``'s test that JAX305 claims and `select_with_where` rewrites into one
        ``jnp.where`` (``if flag:`` is not: it may test a pytree, so JAX305 leaves it)."""
        branch = self.ctx.parent(test)
        return (
            isinstance(fn, cst.FunctionDef)
            and isinstance(branch, cst.If)
            and branch.test is test
            and answers_only_for_arrays(test, self.ctx)
            and not isinstance(select(self.analysis, fn, branch), str)
        )

    # -- repairs ------------------------------------------------------------------------
    def _repair(self, fn: FunctionNode, sig: Signature, route: Route, layer: Wrap, problems: list[_Problem]) -> Finding:
        ctx = self.ctx
        call = route.call
        assert call is not None
        fn_name = fn.name.value if isinstance(fn, cst.FunctionDef) else "f"
        label = f"`{fn_name}`" if isinstance(fn, cst.FunctionDef) else "the lambda"
        listed = ", ".join(f"`{p.param}={p.value_text}`" for p in problems)
        head = f"{problems[0].why} ({listed}, for {label})"
        if len(problems) > 1:
            head = f"{problems[0].why}; so do the other Python values of this call ({listed}, for {label})"
        anchor = problems[0].arg
        if any(p.array for p in problems):
            notes = (
                f"option: if one value serves every example, pass it as a Python value the transform leaves alone "
                f"(`in_axes=None` for vmap, a static option, or `partial({fn_name}, ...)`)",
                "option: if the value really differs per example, compute what needs it outside the transform, or "
                "use a static bound and a mask",
            )
            return ctx.finding("JAX405", anchor, f"{head}; not rewritten: the call passes an array, whose meaning a person decides", notes=notes)
        reasons: list[str] = []
        for strategy in (self._positional, self._bind_keywords, self._make_static):
            plan = strategy(fn, sig, route, layer, problems)
            if isinstance(plan, tuple):
                edits, description = plan
                return ctx.finding("JAX405", anchor, f"{head}; fix: {description}", tuple(edits), description=description)
            reasons.append(plan)
        reason = reasons[-1]
        if not self._inline(route, layer):
            reason = (
                f"`{layer.name}` is applied where {label} is defined or named, so a change there "
                "reaches every call of it"
            )
        return ctx.finding("JAX405", anchor, f"{head}; not rewritten: {reason}", notes=self._options(layer, problems, fn_name))

    def _inline(self, route: Route, layer: Wrap) -> bool:
        """The transform is applied right at this call: ``T(f, ...)(args)``; no other call sees the edit."""
        call = route.call
        return (
            len(route.wraps) == route.head + 1
            and route.wraps[-1] is layer
            and isinstance(layer.node, cst.Call)
            and call is not None
            and call.func is layer.node
            and bool(layer.node.args)
            and layer.node.args[0].value is route.last_ref
        )

    def _positional(self, fn: FunctionNode, sig: Signature, route: Route, layer: Wrap, problems: list[_Problem]) -> tuple[list[Edit], str] | str:
        ctx = self.ctx
        call = route.call
        assert call is not None
        if not all(p.treatment is Treatment.STATIC_BY_POSITION_ONLY for p in problems):
            return "not only keyword arguments of a static option"
        if len(problems) != 1:
            return "several keyword arguments would move"
        (problem,) = problems
        positional = [a for a in call.args if a.keyword is None]
        if sig.positional_index(problem.param) != len(positional):
            return f"`{problem.param}` is not the next positional argument of the call"
        keywords = [a for a in call.args if a.keyword is not None]
        if keywords[0] is not problem.arg and not _movable(ctx, problem.arg.value):
            return "moving the argument before other keywords would change the order they are evaluated in"
        index = list(call.args).index(problem.arg)
        edits = remove_args(ctx, call, [index])
        text = ctx.code(problem.arg.value)
        if positional:
            edits.append(Edit(ctx.end(positional[-1].value), ctx.end(positional[-1].value), f", {text}"))
        else:
            first = call.args[0]
            edits.append(Edit(ctx.start(first), ctx.start(first), f"{text}, "))
        return edits, f"pass `{problem.param}` positionally (`{text}`), as {STATIC_OPTION[layer.name]} requires"

    def _bind_keywords(self, fn: FunctionNode, sig: Signature, route: Route, layer: Wrap, problems: list[_Problem]) -> tuple[list[Edit], str] | str:
        ctx = self.ctx
        call = route.call
        assert call is not None
        if not self._inline(route, layer):
            return "the transformed function is not applied right at this call"
        if any(p.position is not None for p in problems):
            return "a positional argument cannot be bound by keyword without moving the others"
        for p in problems:
            declared = sig.param(p.param)
            if declared is None and sig.has_var_keyword:
                pass  # caught by **kwargs, bound there by partial just the same
            elif declared is None or declared.kind not in (ParamKind.POSITIONAL_OR_KEYWORD, ParamKind.KEYWORD_ONLY):
                return f"`{p.param}` cannot be bound by keyword"
            if not _movable(ctx, p.arg.value):
                return f"`{p.value_text}` is not a plain value: binding it earlier could change what it is"
        spelling = planner(self.analysis).spell(PARTIAL, call)
        if spelling is None:
            return "no name for functools.partial is free here"
        ref = route.ref
        assert isinstance(ref, cst.BaseExpression)
        bound = ", ".join(f"{p.param}={ctx.code(p.arg.value)}" for p in problems)
        edits = [ctx.replace(ref, f"{spelling.text}({ctx.code(ref)}, {bound})")]
        edits.extend(remove_args(ctx, call, [list(call.args).index(p.arg) for p in problems]))
        if spelling.edit is not None:
            edits.append(spelling.edit)
        return edits, f"bind {bound} into the function before `{layer.name}` sees it: `{spelling.text}({ctx.code(ref)}, {bound})`"

    def _make_static(self, fn: FunctionNode, sig: Signature, route: Route, layer: Wrap, problems: list[_Problem]) -> tuple[list[Edit], str] | str:
        ctx = self.ctx
        call = route.call
        assert call is not None
        if not self._inline(route, layer) and not self._every_call_agrees(fn, layer, problems):
            return "the transform is not applied right at this call, and other calls would see a new static option"
        if any(p.position is None for p in problems):
            return "an argument passed by keyword"
        if any(p.position != sig.positional_index(p.param) for p in problems):
            return "an argument's position differs from its parameter's"
        options = layer.node
        assert isinstance(options, cst.Call)
        positions = sorted(p.position for p in problems if p.position is not None)
        edits_before: list[Edit] = []
        if any(p.repeated is not None for p in problems) and layer.name != "jax.vmap":
            return "only vmap's in_axes passes a value unmapped"
        if layer.name == "jax.vmap":
            positional = [a for a in call.args if a.keyword is None]
            if in_axes(ctx, options) != 0 or len([a for a in options.args if a.keyword is None]) > 1 or option_arg(options, "in_axes"):
                return "vmap already has in_axes"
            if len(set(positions)) == len(positional) and not any(a.keyword is not None for a in call.args):
                return "vmap needs at least one mapped argument"
            text = in_axes_text(len(positional), set(positions))
            keyword = "in_axes"
            for problem in problems:  # an array built to repeat a Python value: the value itself
                if problem.repeated is not None:
                    if not _movable(ctx, problem.repeated):
                        return f"`{ctx.code(problem.repeated)}` cannot be read at the call"
                    edits_before.append(ctx.replace(problem.arg.value, ctx.code(problem.repeated)))
        else:
            keyword = STATIC_OPTION[layer.name]
            assert keyword is not None
            if option_arg(options, keyword) is not None:
                existing = static_positions(ctx, layer.name, options)
                if existing is None:
                    return f"{keyword} cannot be read"
                positions = sorted(set(positions) | existing)
            inner = ", ".join(str(i) for i in positions)
            text = f"{keyword}=({inner}{',' if len(positions) == 1 else ''})"
        current = option_arg(options, keyword)
        if current is not None:
            edits = [ctx.replace(current, text)]
        else:
            last = options.args[-1]
            edits = [Edit(ctx.end(last.value), ctx.end(last.value), f", {text}")]
        if edits_before:
            passed = ", ".join(f"`{ctx.code(p.repeated)}`" for p in problems if p.repeated is not None)
            return [*edits, *edits_before], (
                f"`{text}` on this `{layer.name}`, and the call passes {passed} itself, so that every example gets "
                "the Python value untouched"
            )
        return edits, f"`{text}` on this `{layer.name}`, so that the Python value reaches the function untouched"

    def _every_call_agrees(self, fn: FunctionNode, layer: Wrap, problems: list[_Problem]) -> bool:
        """``g = jax.vmap(f)`` called from several places: the option may go on that one application
        when every call of it passes a Python value at each position, positionally, with as many
        positional arguments (vmap's in_axes has one entry per positional argument)."""
        if not isinstance(layer.node, cst.Call) or not layer.node.args or layer.node.args[0].keyword is not None:
            return False
        through = [r for r in self.analysis.traces.routes(fn) or () if any(w is layer for w in r.wraps)]
        if not through or any(r.call is None or r.escapes or r.bound or r.uncertain or not surely_of(self.analysis, fn, r) for r in through):
            return False
        counts = {len([a for a in r.call.args if a.keyword is None]) for r in through}  # type: ignore[union-attr]
        if len(counts) != 1 or any(a.star for r in through for a in r.call.args):  # type: ignore[union-attr]
            return False
        sig = function_info(self.ctx, fn).signature
        for problem in problems:
            index = sig.positional_index(problem.param)
            for r in through:
                argument = call_argument(r.call, sig, problem.param, bound=False)  # type: ignore[arg-type]
                positional = [a.value for a in r.call.args if a.keyword is None]  # type: ignore[union-attr]
                if index is None or index >= len(positional) or positional[index] is not argument:
                    return False
                if not is_python_value(self.analysis, argument):
                    return False
        return True

    def _options(self, layer: Wrap, problems: list[_Problem], fn_name: str) -> tuple[str, ...]:
        name = layer.name
        keyword = STATIC_OPTION[layer.name]
        params = ", ".join(p.param for p in problems)
        out = [f"option: bind {params} into `{fn_name}` before `{name}` sees it (`{name}(partial({fn_name}, {problems[0].param}=...))`)"]
        if keyword is not None:
            out.append(f"option: list the position in `{keyword}` and pass the value positionally at every call")
        else:
            out.append("option: give the position `None` in vmap's `in_axes` at every call (keyword arguments are always mapped)")
        return tuple(out)

    # -- jax.eval_shape(f, *args) -------------------------------------------------------
    def _eval_shape(self, call: cst.Call) -> Finding | None:
        ctx = self.ctx
        args = list(call.args)
        if len(args) < 2 or any(a.star or a.keyword is not None for a in args):
            return None
        fn_arg, rest = args[0], args[1:]
        trailing: list[cst.Arg] = []
        for arg in reversed(rest):
            value = constant_value(ctx, arg.value)
            if value is NOT_CONSTANT or value is None:
                break
            trailing.insert(0, arg)
        if not any(isinstance(constant_value(ctx, a.value), str) for a in trailing):
            return None
        leading = rest[: len(rest) - len(trailing)]
        if not leading:
            return None
        shown = ", ".join(ctx.code(a.value) for a in trailing)
        head = f"`jax.eval_shape` traces every argument, and a string cannot be traced: `{shown}` must reach `{shorten(ctx.code(fn_arg.value))}` as Python values"
        free = names_in(fn_arg.value) | {n for a in trailing for n in names_in(a.value)}
        params: list[str] = []
        for i, arg in enumerate(leading):
            wanted = arg.value.value if isinstance(arg.value, cst.Name) else f"arg{i}"
            name = wanted
            n = 0
            while name in free or name in params:
                n += 1
                name = f"{wanted}_{n}"
            params.append(name)
        body = f"{ctx.code(fn_arg.value)}({', '.join([*params, *(ctx.code(a.value) for a in trailing)])})"
        lam = f"lambda {', '.join(params)}: {body}"
        new_args = ", ".join([lam, *(ctx.code(a.value) for a in leading)])
        edits = (Edit(ctx.start(args[0]), ctx.end(args[-1].value), new_args),)
        description = f"pass the Python values inside a lambda: `jax.eval_shape({shorten(lam)}, ...)`"
        return ctx.finding("JAX405", trailing[0], f"{head}; fix: {description}", edits, description=description)


#: The transforms' names, as a file may spell them (the screen's seeds).
_WORDS = ("checkpoint", "remat", "make_jaxpr", "pmap", "vmap", "eval_shape")
#: The primitives a function, or a module holding one, may be handed to as a carry or operand (`function_carry`).
_CONTROL_FLOW_WORDS = ("scan", "fori_loop", "while_loop", "cond", "switch")
_QUALIFIED = frozenset({*STATIC_OPTION, EVAL_SHAPE})


def _spelled(facts: Facts, node: ast.AST) -> bool:
    """The node names one of the transforms, or applies or partially applies one."""
    if isinstance(node, ast.Call):
        return _spelled(facts, node.func) or (bool(node.args) and _spelled(facts, node.args[0]))
    if isinstance(node, (ast.Name, ast.Attribute)) and (node.id if isinstance(node, ast.Name) else node.attr) in _WORDS:
        return bool(qualified_spellings(facts, node) & _QUALIFIED)
    return False


def seeds(facts: Facts) -> list[ast.AST]:
    """The applications of the transforms: ``jax.vmap(f)`` (and the call of it), ``partial(jax.pmap,
    ...)``, and each def they decorate; the slice keeps the functions these name and their calls.
    (Module-level functions, not closures: a recursive closure over `facts` would keep its tree
    alive until a collection, tests/test_gcpause.py.)"""
    out: list[ast.AST] = []
    for node in facts.nodes:
        if isinstance(node, ast.Call) and _spelled(facts, node):
            out.append(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(_spelled(facts, d) for d in node.decorator_list):
            out.append(node)
    if out and "equinox" in facts.text and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Call) for n in out):
        return [facts.tree]  # `jax.vmap(f)(ensemble)`: the module classes that build it may be anywhere (`equinox_vmap`)
    carried = function_carry_seeds(facts)  # a function, or a module holding one, as a carry (`function_carry`)
    return [facts.tree] if any(c is facts.tree for c in carried) else [*out, *carried]


class TransformTracesPythonValue405(Rule):
    """A transform other than jit traces a Python value that the function needs as one.

    ``jax.checkpoint``/``jax.remat``, ``jax.make_jaxpr`` and ``jax.eval_shape``
    trace every argument they are given, keyword arguments included, unless a
    static option lists its *position*; ``jax.vmap`` and ``jax.pmap`` map them
    along an axis. A Python value the function needs as one (``if flag:``,
    ``range(n)``, a shape), a string, or a Python scalar under vmap then fails::

        jax.errors.TracerBoolConversionError: Attempted boolean conversion of traced array with shape bool[].
        ValueError: vmap was requested to map its argument along axis 0, which implies that its rank should be at least 1, but is only 0
        ValueError: the `static_argnums` argument to `jax.checkpoint` / `jax.remat` can only take integer values.
        ValueError: pmapped function has static_broadcasted_argnums=(1,) but was called with only 1 positional argument.

    The fixes, measured (docs/jax405-behaviour.md): pass positionally an
    argument whose position the static option already lists; bind keyword
    arguments with ``functools.partial`` inside a transform applied right at
    the call (``jax.checkpoint(partial(f, flag=False))(x)``); add the position
    to ``static_argnums`` / ``static_broadcasted_argnums``, or ``None`` to
    vmap's ``in_axes``, on a transform applied right at the call (or on
    ``g = jax.vmap(f)`` when every call of ``g`` agrees); for
    ``jax.eval_shape(f, x, "SAME")``, move the trailing Python values into a
    lambda. A decorated transform, or one whose calls disagree, is reported
    with the options: changing its static option changes every call.

    An array built only to repeat one Python value along the mapped axis
    (``jnp.full(xs.shape, degree)``, ``window * jnp.ones(n)``, as when a list
    comprehension becomes a vmap) gives every example that value as a tracer:
    where the function needs it as a Python value, the call passes the value
    itself with ``None`` in ``in_axes`` (`semantics.broadcast_values`).

    An equinox module that holds a function as a leaf (an ``eqx.nn.MLP``'s
    activation) given to a bare ``jax.vmap(f)`` fails, vmap mapping every leaf
    as an array (equinox#865): it is mapped with ``eqx.filter_vmap``, which
    maps the arrays along axis 0 and leaves the rest (`equinox_vmap`). Handed
    to ``lax.scan``/``fori_loop``/``while_loop`` as (part of) the carry, or to
    ``lax.cond``/``switch`` as an operand, it fails the same way (equinox#446,
    #389, #630), and so does a function carried itself (jax#6539): reported,
    with equinox's ``partition``/``combine`` split or a closure (`function_carry`).

    ``jax.grad`` and its relatives trace only ``argnums``, and jit is JAX302's.
    """

    code = "JAX405"
    name = "transform-traces-python-value"
    summary = "checkpoint, vmap, pmap, make_jaxpr or eval_shape traces a Python value the function needs as one"
    required = ((*_WORDS, *_CONTROL_FLOW_WORDS),)
    follows_callees = True

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        return seeds(facts)

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        found = [*TransformedCalls(analysis).findings(), *function_carry_findings(analysis)]
        return [*found, *equinox_vmap_findings(analysis)] if "equinox" in analysis.ctx.text else found
