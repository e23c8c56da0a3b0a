"""JAX408 custom-vjp-argument-needs-python-value: a custom_vjp needs an ordinary argument as a Python value.

Inside jit (and every staging transform), ``jax.custom_vjp`` hands each
argument not listed in ``nondiff_argnums`` to the function as a tracer, a
Python number too, even one that is a static argument of the jit around it
(jax#11646; docs/jax407-behaviour.md, "an ordinary argument needed as a
Python value"). A body that needs it as a Python value (``int(k)``, a size, a
Python ``if``) then fails with ConcretizationTypeError; eagerly, and under
``grad`` alone, the same code runs. Listing the argument in
``nondiff_argnums`` passes it through as the Python value it is
(`nondiff_repair`), which is right when every call passes one: a literal or
constant, or a static argument of the enclosing jit. A call passing a traced
value there would fail either way (JAX407), so the fix is only made when
every call of the module can be read and passes a Python value.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Finding
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.rules.jax408_custom_vjp_argument_needs_python_value.custom_jvp_repair import (
    CustomJvp,
    bare_custom_jvp,
    calls_pass,
)
from jaxfix.transforms.rules.jax408_custom_vjp_argument_needs_python_value.custom_jvp_repair import (
    move_to_nondiff as jvp_move,
)
from jaxfix.transforms.rules.jax408_custom_vjp_argument_needs_python_value.nondiff_repair import (
    CustomVjp,
    move_to_nondiff,
)
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.custom_vjp import (
    CUSTOM_VJP,
    nondiff_function,
    plain_positional,
    python_value_needed,
    references,
    vjp_rules,
)
from jaxfix.transforms.semantics.jit_signature import Signature
from jaxfix.transforms.semantics.jit_wrappers import function_info, read_jit_wrapper
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.passed_arguments import DEFAULT, call_argument
from jaxfix.transforms.semantics.python_values import PythonValue, python_value
from jaxfix.transforms.semantics.staged import runs_staged
from jaxfix.transforms.semantics.static_values import Kind
from jaxfix.transforms.semantics.vocabulary import DIFFERENTIATION

CODE = "JAX408"


def custom_vjp(analysis: Analysis, fn: cst.FunctionDef) -> CustomVjp | None:
    """`fn` read as a custom_vjp: one decorator (under a ``@staticmethod`` at most)."""
    ctx = analysis.ctx
    decorators = [d for d in fn.decorators if ctx.names.qualified_name(d.decorator) != "builtins.staticmethod"]
    if len(decorators) != 1:
        return None
    decorator = decorators[0]
    if ctx.names.qualified_name(decorator.decorator) == CUSTOM_VJP:
        return CustomVjp(fn, decorator, (), None)
    listed = nondiff_function(ctx, fn)
    return CustomVjp(fn, decorator, listed.positions, listed.option) if listed is not None else None


class OrdinaryNeedsPythonValue:
    """One module's JAX408 findings: one per custom_vjp, at its first argument needed as a Python value."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx

    def findings(self) -> Iterator[Finding]:
        for fn in self.ctx.nodes_of(cst.FunctionDef):
            jvp = bare_custom_jvp(self.ctx, fn) if fn.decorators else None
            if jvp is not None:
                found = self._jvp_finding(fn, jvp)
                if found is not None:
                    yield found
                continue
            vjp = custom_vjp(self.analysis, fn) if fn.decorators else None
            if vjp is None or not runs_staged(self.analysis, fn):
                continue
            primal = plain_positional(fn, undecorated=False)
            needed = [(p, why) for p, why in self._needed(vjp, primal or [])]
            if needed:
                yield self._finding(vjp, primal, needed)  # type: ignore[arg-type]

    def _jvp_finding(self, fn: cst.FunctionDef, jvp: CustomJvp | str) -> Finding | None:
        """A bare ``@jax.custom_jvp`` staged somewhere, one of whose arguments the function (or the jit
        under the decorator) needs as a Python value (jax#22513)."""
        ctx = self.ctx
        if not self._custom_jvp_staged(fn):
            return None
        primal = plain_positional(fn, undecorated=False) or []
        needed = [(p, why) for p, why in self._needed(CustomVjp(fn, fn.decorators[0], (), None), primal)]
        needed += [(p, f"the jit under `jax.custom_jvp` keeps `{primal[p].name.value}` static") for p in self._static_below(fn, primal)]
        if not needed:
            return None
        position, why = min(needed)
        name, param = fn.name.value, primal[position].name.value
        head = (
            f"`{param}` is an ordinary argument of `{name}`, a `jax.custom_jvp` that runs inside a staging "
            f"transform, which hands it to `{name}` as a tracer even when the call passes a Python value, but {why}"
        )
        plan = jvp if isinstance(jvp, str) else calls_pass(self.analysis, jvp, position, self._passes_python_value)
        if plan is None:
            plan = jvp_move(self.analysis, jvp, position, param)  # type: ignore[arg-type]
        if isinstance(plan, str):
            return ctx.finding(
                CODE,
                primal[position],
                f"{head}; not rewritten: {plan}",
                notes=(
                    f"option: list `{param}` in `nondiff_argnums` (the jvp rule then takes it first, and the primals "
                    "and tangents without it) if every call passes a Python value",
                ),
            )
        edits, decorator = plan
        return ctx.finding(
            CODE,
            primal[position],
            f"{head}; every call passes a Python value there, so `{param}` is listed in `nondiff_argnums` "
            f"(`{decorator}`), and the jvp rule puts it back among its primals in its first line",
            edits,
            description=f"list `{param}` in `nondiff_argnums` of `{name}`",
            notes=("its tangent in the rule is `None`, which the rule does not read",),
        )

    def _custom_jvp_staged(self, fn: cst.FunctionDef) -> bool:
        """Some use of the custom_jvp runs inside a staging transform: it is handed to a jit, through
        grads and vmaps or not (``jax.jit(fun)``, ``jax.jit(jax.grad(fun))``), or called in staged code."""
        ctx = self.ctx
        for ref in references(ctx, fn):
            parent = ctx.parent(ref)
            if isinstance(parent, cst.Call) and parent.func is ref:
                if runs_staged(self.analysis, ctx.enclosing_function(parent)):
                    return True
                continue
            layer = ctx.parent(parent) if isinstance(parent, cst.Arg) else None
            # vmap with the argument unmapped and grad hand it on as the Python value it is; a jit
            # (or pmap) stages it (docs/jax407-behaviour.md, "custom_jvp, an ordinary argument")
            while isinstance(layer, cst.Call) and ctx.names.qualified_name(layer.func) in (DIFFERENTIATION | {"jax.jit", "jax.vmap", "jax.pmap"}):
                if ctx.names.qualified_name(layer.func) in ("jax.jit", "jax.pmap"):
                    return True
                above = ctx.parent(layer)
                layer = ctx.parent(above) if isinstance(above, cst.Arg) else None
        return False

    def _static_below(self, fn: cst.FunctionDef, primal: list[cst.Param]) -> list[int]:
        """Positions a jit decorator under ``@jax.custom_jvp`` declares static: the jit needs a hashable
        Python value there, and custom_jvp hands it a tracer."""
        ctx = self.ctx
        out: list[int] = []
        signature = function_info(ctx, fn).signature
        for decorator in fn.decorators[1:]:
            wrapper = read_jit_wrapper(ctx, decorator.decorator)
            spec = wrapper.spec if wrapper is not None else None
            if spec is None:
                continue
            static = spec.declared_static(signature)
            out.extend(i for i, p in enumerate(primal) if p.name.value in static)
        return out

    def _passes_python_value(self, argument: cst.BaseExpression, call: cst.Call) -> bool:
        return self._python_value(argument, runs_staged(self.analysis, self.ctx.enclosing_function(call)))

    def _needed(self, vjp: CustomVjp, primal: list[cst.Param]) -> Iterator[tuple[int, str]]:
        ctx = self.ctx
        for position, param in enumerate(primal):
            if position in vjp.listed:
                continue
            scope = ctx.scope(param.name)
            if scope is None or len(scope.assignments[param.name.value]) != 1:
                continue  # bound again: which reads see the argument is not followed
            why = python_value_needed(ctx, param)
            if why is not None:
                yield position, why

    def _finding(self, vjp: CustomVjp, primal: list[cst.Param], needed: list[tuple[int, str]]) -> Finding:
        ctx = self.ctx
        position, why = needed[0]
        name, param = vjp.function.name.value, primal[position].name.value
        head = (
            f"`{param}` is an ordinary argument of `{name}`, a `jax.custom_vjp` that runs inside a staging "
            f"transform, which hands it to `{name}` as a tracer even when the call passes a Python value, "
            f"but {why}"
        )
        moved = tuple(p for p, _ in needed)
        shown = ", ".join(f"`{primal[p].name.value}`" for p in moved)
        refused = self._callers_refuse(vjp, [primal[p].name.value for p in moved])
        plan = refused if refused is not None else move_to_nondiff(self.analysis, vjp, moved)
        if isinstance(plan, str):
            return ctx.finding(
                CODE,
                primal[position],
                f"{head}; not rewritten: {plan}",
                notes=(
                    f"option: list {shown} in `nondiff_argnums` (bwd then takes it first and returns no cotangent "
                    "for it) if every call passes a Python value",
                ),
            )
        edits, decorator = plan
        return ctx.finding(
            CODE,
            primal[position],
            f"{head}; every call passes a Python value there, so {shown} "
            f"{'is' if len(moved) == 1 else 'are'} listed in `nondiff_argnums`: `{decorator}`",
            edits,
            description=f"list {shown} in `nondiff_argnums` of `{name}`",
            notes=("bwd takes the nondiff arguments first and returns cotangents for the others only",),
        )

    def _callers_refuse(self, vjp: CustomVjp, params: list[str]) -> str | None:
        """Why some use of the function is not proven to pass a Python value in each of `params`;
        None when every use is a call that does."""
        ctx, analysis = self.ctx, self.analysis
        signature = function_info(ctx, vjp.function).signature
        _, fwd, _ = vjp_rules(ctx, vjp.function)
        calls = 0
        for ref in references(ctx, vjp.function):
            parent = ctx.parent(ref)
            if isinstance(parent, cst.Attribute) and parent.attr.value == "defvjp":
                continue
            if not (isinstance(parent, cst.Call) and parent.func is ref):
                return f"`{ctx.code(ref)}` is used on line {ctx.span(ref).start.line} where its arguments cannot be seen"
            calls += 1
            staged = runs_staged(analysis, ctx.enclosing_function(parent))
            for param in params:
                argument = call_argument(parent, signature, param, bound=False, ctx=ctx)
                if argument is DEFAULT:
                    declared = next(p for p in vjp.function.params.params if p.name.value == param)
                    argument = declared.default
                if _forwarded(ctx, fwd, parent, argument, param, signature):
                    continue  # fwd calling the function with its own argument: the one being listed
                if not isinstance(argument, cst.BaseExpression) or not self._python_value(argument, staged):
                    return f"the call on line {ctx.span(parent).start.line} may pass `{param}` a value that is not a Python value"
        return None if calls else f"no call of `{vjp.function.name.value}` can be seen"

    def _python_value(self, argument: cst.BaseExpression, staged: bool) -> bool:
        """A hashable Python value (a literal, a constant), or, in staged code, a value static there
        (a static argument of the enclosing jit)."""
        if isinstance(python_value(self.analysis, argument), PythonValue):
            return True
        return staged and self.analysis.staticness.verdict(argument).kind is Kind.STATIC


def _forwarded(
    ctx: ModuleContext, fwd: cst.FunctionDef | None, call: cst.Call, argument: object, param: str, signature: Signature
) -> bool:
    """``f(z, k)`` in fwd, `argument` fwd's own parameter at `param`'s position: after the move
    custom_vjp hands fwd that argument as the Python value it hands `f`."""
    if fwd is None or ctx.enclosing_function(call) is not fwd or not isinstance(argument, cst.Name):
        return False
    params = plain_positional(fwd) or []
    position = next((i for i, p in enumerate(signature.positional) if p.name == param), None)
    if position is None or position >= len(params) or params[position].name.value != argument.value:
        return False
    scope = ctx.scope(params[position].name)
    return scope is not None and len(scope.assignments[argument.value]) == 1


class CustomVjpArgumentNeedsPythonValue408(Rule):
    """A ``jax.custom_vjp`` needs an ordinary argument as a Python value.

    Inside jit, custom_vjp hands every argument not in ``nondiff_argnums`` to
    the function as a tracer, even a Python number the jit keeps static::

        @jax.custom_vjp
        def power(z, k):
            return z ** int(k)            # ConcretizationTypeError under jit

        def bwd(res, g):
            return (g * ..., None)

    When every call passes a Python value there, it is listed in
    ``nondiff_argnums``; bwd takes it first and no longer returns a
    cotangent for it::

        @partial(jax.custom_vjp, nondiff_argnums=(1,))
        def power(z, k): ...
        def bwd(k, res, g):
            return (g * ...,)

    A ``@jax.custom_jvp`` is judged the same way where a jit runs it (jax#22513:
    a derivative order the jit under the decorator keeps static): the argument is
    listed, and the jvp rule takes it first and puts it back among its primals in
    its first line (``a, adot = a[:2] + (dx,) + a[2:], adot[:2] + (None,) +
    adot[2:]``), so its body computes what it did; its tangent, now ``None``, must
    be read nowhere (`custom_jvp_repair`).

    Valid: an ordinary argument only used as data (a tracer serves), a
    custom_vjp never called inside a staging transform, a custom_jvp only
    differentiated or vmapped (both hand the Python value through).
    """

    code = CODE
    name = "custom-vjp-argument-needs-python-value"
    summary = "a custom_vjp (or custom_jvp) needs an ordinary argument as a Python value, which jit hands it as a tracer: list it in nondiff_argnums"
    required = (("custom_vjp", "custom_jvp"),)

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """The whole module, when a def is decorated with ``custom_vjp`` (its callers and its fwd and
        bwd are anywhere in it)."""
        decorated = any(
            isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and any("custom_vjp" in ast.unparse(d) or "custom_jvp" in ast.unparse(d) for d in n.decorator_list)
            for n in facts.nodes
        )
        return [facts.tree] if decorated else []

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return OrdinaryNeedsPythonValue(analysis).findings()
