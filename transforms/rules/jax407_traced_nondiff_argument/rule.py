"""JAX407 traced-nondiff-argument: a custom_vjp's nondiff_argnums slot is handed a tracer.

``nondiff_argnums`` is meant for arguments that are never tracers (functions,
Python options): custom_vjp raises UnexpectedTracerError when a call passes one
there, under jit, vmap or grad alike (jax#2912; docs/jax407-behaviour.md). An
argument the author declared non-differentiable but that is traced becomes an
ordinary argument with a zero cotangent (`residual_repair`), as JAX's
documentation advises. custom_jvp accepts tracers in the same slots until it is
differentiated with the slot traced inside (jax#20889): then the slot becomes an
ordinary argument too (`custom_jvp_slots`). A nondiff argument fwd saves in its residuals fails
when it is no JAX type (a function: jax#17753); bwd is handed it anyway, so it
leaves the residuals (`saved_nondiff`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

import libcst as cst

from jaxfix.transforms.core.findings import Finding
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.rules.jax407_traced_nondiff_argument.custom_jvp_slots import custom_jvp_findings
from jaxfix.transforms.rules.jax407_traced_nondiff_argument.residual_repair import (
    move_to_residuals,
    needed_as_python_value,
)
from jaxfix.transforms.rules.jax407_traced_nondiff_argument.saved_nondiff import saved_nondiff_findings
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.custom_vjp import NondiffFunction, nondiff_function, slot_arguments
from jaxfix.transforms.semantics.jit_wrappers import function_info
from jaxfix.transforms.semantics.traced_values import Source

CODE = "JAX407"


class TracedNondiff:
    """One module's JAX407 findings: one per custom_vjp function, at its first traced slot."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx

    def findings(self) -> Iterable[Finding]:
        for fn in self.ctx.nodes_of(cst.FunctionDef):
            nd = nondiff_function(self.ctx, fn)
            if nd is None:
                continue
            traced = self._traced_slots(nd)
            finding = self._finding(nd, traced) if traced else None
            if finding is not None:
                yield finding
            yield from saved_nondiff_findings(self.analysis, nd, CODE)

    def _traced_slots(self, nd: NondiffFunction) -> list[tuple[int, cst.BaseExpression, Source]]:
        """(position, argument, why it is a tracer) for each call handing a nondiff slot a tracer."""
        ctx = self.ctx
        found: list[tuple[int, cst.BaseExpression, Source]] = []
        for position, arg in slot_arguments(ctx, nd):
            source = self.analysis.traced.tracer_source(arg)
            if source is not None:
                found.append((position, arg, source))
        return sorted(found, key=lambda f: ctx.start(f[1]))

    def _finding(self, nd: NondiffFunction, traced: list[tuple[int, cst.BaseExpression, Source]]) -> Finding | None:
        ctx = self.ctx
        position, arg, source = traced[0]
        reason = source.reason
        name = nd.function.name.value
        params = function_info(ctx, nd.function).signature.positional
        moved = tuple(sorted({p for p, _, _ in traced}))
        shown = ", ".join(f"`{params[p].name}`" for p in moved)
        head = (
            f"`{ctx.code(arg)}` is a tracer ({reason}), handed to `{params[position].name}` of `{name}`, which "
            f"`jax.custom_vjp` lists in `nondiff_argnums`: custom_vjp refuses tracers there (UnexpectedTracerError)"
        )
        others = [f"line {ctx.span(a).start.line}" for _, a, _ in traced[1:]]
        also = f" (also {', '.join(others)})" if others else ""
        needed = needed_as_python_value(ctx, nd, moved)
        if needed is not None:
            if any(source.entry.jit is not None for _, _, source in traced):
                return None  # a jitted parameter a Python value is needed from: JAX302 makes it static
            return ctx.finding(
                CODE,
                arg,
                f"{head}{also}; not rewritten: {needed}",
                notes=("option: pass a Python value there: keep the value out of the trace that makes it a tracer "
                       "(an argument vmap does not map, `in_axes=None`; a static argument of a jit)",),
            )
        repaired = move_to_residuals(ctx, nd, moved)
        if isinstance(repaired, str):
            return ctx.finding(
                CODE,
                arg,
                f"{head}{also}; not rewritten: {repaired}",
                notes=(
                    f"option: make {shown} an ordinary argument: fwd saves it with the residuals, bwd reads it from "
                    "them and returns `None` (a zero cotangent) in its place",
                    "option: pass a Python value there (close over it, or keep the caller's value out of the trace)",
                ),
            )
        edits, header = repaired
        return ctx.finding(
            CODE,
            arg,
            f"{head}{also}; {shown} {'becomes an ordinary argument' if len(moved) == 1 else 'become ordinary arguments'}: "
            f"fwd saves {'it' if len(moved) == 1 else 'them'} with its residuals, and bwd (`{header}`) reads "
            f"{'it' if len(moved) == 1 else 'them'} back and gives {'it' if len(moved) == 1 else 'each'} no cotangent (`None`)",
            edits,
            description=f"make {shown} an ordinary argument of `{name}` with a zero cotangent",
            notes=(
                "the gradient with respect to it is zero, as declaring it non-differentiable meant; every other "
                "value is computed as before",
            ),
        )


class TracedNondiffArgument407(Rule):
    """A custom_vjp's nondiff_argnums slot is handed a tracer.

    ``nondiff_argnums`` is for values that are never tracers (functions,
    Python options). A traced value there raises ``UnexpectedTracerError``,
    under ``jit``, ``vmap`` or ``grad`` alike (jax#2912)::

        @partial(jax.custom_vjp, nondiff_argnums=(0,))
        def f(s, p):
            return s * p
        def fwd(s, p):
            return s * p, ()
        def bwd(s, res, g):
            return (s * g,)
        f.defvjp(fwd, bwd)

        @jax.jit
        def g(s, p):
            return f(s, p)   # UnexpectedTracerError: s is a tracer in a nondiff slot

    The fix makes it an ordinary argument, as JAX's documentation advises:
    fwd saves it with its residuals (``return s * p, (s, ())``), bwd reads it
    back (``def bwd(saved, g): s, res = saved``) and returns ``None`` (a zero
    cotangent) in its place (``return (None, s * g)``). It is made only when
    fwd and bwd are the module's own defs named only by ``defvjp``, their
    returns are written out, and nothing needs the argument as a Python value
    (a size, an ``if``, a call of it); otherwise the finding is a report with
    the same options. Valid: a function or a Python value in the slot, and a
    custom_jvp nothing differentiates, which accepts tracers there.

    A custom_jvp differentiated with a traced nondiff slot (a jit or a scan
    carry inside the ``grad``) fails too (jax#20889); the argument leaves
    ``nondiff_argnums``, and the jvp rule takes ``(primals, tangents)`` with
    first lines giving its body the names it had (``mask = primals[1]``, and the
    primals and tangents without it).

    The other way round, fwd saving a nondiff function in its residuals
    (``return x, (x, theta, step)``) fails too: residuals must be JAX types
    (jax#17753). bwd is handed every nondiff argument first, so the saved copy
    leaves the residuals and bwd's unpacking of them, where bwd unpacks it
    under the name of its own parameter for that slot.
    """

    code = CODE
    name = "traced-nondiff-argument"
    summary = "a custom_vjp's nondiff_argnums slot is handed a tracer (a custom_jvp's, differentiated): make it an ordinary argument"
    required = (("nondiff_argnums",), ("custom_vjp", "custom_jvp"))

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """The whole module, when a def is decorated with ``nondiff_argnums`` (the callers are
        anywhere in it)."""
        decorated = any(
            isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and any("nondiff_argnums" in ast.unparse(d) for d in n.decorator_list)
            for n in facts.nodes
        )
        assigned = bool(facts.lines_of_words(("custom_jvp",)))  # `f = jax.custom_jvp(g, nondiff_argnums=...)`
        return [facts.tree] if decorated or assigned else []

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return [*TracedNondiff(analysis).findings(), *custom_jvp_findings(analysis, CODE)]
