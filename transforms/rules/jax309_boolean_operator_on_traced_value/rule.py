"""JAX309: ``not``, ``and``, ``or`` of a traced boolean, used as a value.

Python's boolean operators take a Python bool of their operand (``not t``)
or of every operand but the last (``a and b``), which a tracer refuses
(TracerBoolConversionError under jit, vmap, a control-flow body): a
``while_loop`` condition written ``return not jnp.allclose(x, target)``
fails. Where the result is used as a value (returned, stored, handed on),
``jnp.logical_not``/``logical_and``/``logical_or`` compute what was meant:
for one boolean the same bool, under vmap the same per example. When they
are exact is `semantics.logical_operators`' question (the sinks ask it too,
so a parameter read there is not made static by JAX302 as well). Where
no rewrite is exact and the operand is a parameter a transform traces, the
rules for parameters (JAX302, JAX305, JAX405) report it or make it static:
JAX309 says nothing more there. A Python
condition (``if not t:``) is left to the rules for a Python ``if`` on a
traced value (JAX302, JAX305).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Edit, Finding, shorten
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.edits.imports import planner
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.array_destinations import unknown_destination
from jaxfix.transforms.semantics.constants import reaching_parameter, single_binding
from jaxfix.transforms.semantics.logical_operators import (
    blocker,
    functions,
    is_logical,
    taken,
    taken_as_condition,
    written,
)
from jaxfix.transforms.semantics.optional_defaults import optional_or_default
from jaxfix.transforms.semantics.traced_values import Source

CODE = "JAX309"
_OPTIONS = (
    "option: `jnp.logical_not`, `jnp.logical_and`, `jnp.logical_or` take the value as data",
    "option: `lax.cond` (or `jnp.where`) where the operation chooses between two computations",
)


class BooleanOperators:
    """One module's JAX309 findings."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx

    def findings(self) -> Iterator[Finding]:
        ctx = self.ctx
        for node in [*ctx.nodes_of(cst.UnaryOperation), *ctx.nodes_of(cst.BooleanOperation)]:
            if not is_logical(node) or is_logical(ctx.parent(node)) or taken_as_condition(ctx, node):
                continue
            traced = self.analysis.traced.first_value_source(taken(node))
            if traced is not None and (text := self._optional_default(node, traced)) is not None:
                yield self._none_default(node, traced[0], traced[1].reason, text)
            elif traced is not None:
                found = self._finding(node, traced[0], traced[1].reason)
                if found.fix is not None or not (self._parameter(traced[0]) or traced[1].field is not None):
                    # else a parameter read as a Python bool: JAX302's, JAX305's or JAX405's; a
                    # pytree field read so: JAX306's, which may declare it static
                    yield found

    def _parameter(self, operand: cst.BaseExpression) -> bool:
        """The operand is a parameter itself, not a value computed from one: the rules for a
        parameter a transform traces (JAX302 for jit, JAX405 for checkpoint or vmap of a Python
        value, JAX305 for vmap) make it static or report it."""
        if not isinstance(operand, cst.Name):
            return False
        return isinstance(single_binding(self.ctx, operand) or reaching_parameter(self.ctx, operand), cst.Param)

    def _optional_default(self, node: cst.BaseExpression, traced: tuple[cst.BaseExpression, Source]) -> str | None:
        """``p or default`` of an optional parameter the jit traces (`optional_defaults`)."""
        operand, source = traced
        if source.jit is None or source.via is not None or not isinstance(operand, cst.Name) or source.param != operand.value:
            return None
        return optional_or_default(self.ctx, self.analysis.traces, node)

    def _none_default(self, node: cst.BaseExpression, tracer: cst.BaseExpression, why: str, text: str) -> Finding:
        ctx = self.ctx
        head = f"`{shorten(ctx.code(node))}` takes a Python bool of `{ctx.code(tracer)}`, a tracer whenever a call passes it ({why})"
        return ctx.finding(
            CODE,
            node,
            f"{head}; the default it stands for is chosen with `is None`: `{shorten(text, 80)}`",
            (ctx.replace(node, text),),
            description=f"test for None instead of truth: `{shorten(text, 80)}`",
        )

    def _finding(self, node: cst.BaseExpression, tracer: cst.BaseExpression, why: str) -> Finding:
        ctx = self.ctx
        head = f"`{shorten(ctx.code(node))}` takes a Python bool of `{shorten(ctx.code(tracer))}`, a tracer ({why})"
        traced = self.analysis.traced
        blocked = blocker(ctx, self.analysis.traces, node, lambda e: traced.value_source(e) is not None or traced.is_array(e))
        if blocked is None:
            goes = unknown_destination(ctx, self.analysis.traces, node)
            if goes is not None:
                shown = ctx.code(goes) if isinstance(goes, cst.BaseExpression) else "code jaxfix cannot follow"
                blocked = f"its value goes to `{shorten(shown)}`, which may need a Python bool"
        if blocked is not None:
            return ctx.finding(CODE, node, f"{head}; not rewritten: {blocked}", notes=_OPTIONS)
        plan = planner(self.analysis)
        spelled = {name: plan.spell(f"jax.numpy.{name}", node) for name in functions(node)}
        names = {name: s.text for name, s in spelled.items() if s is not None}
        if len(names) < len(spelled):
            return ctx.finding(CODE, node, f"{head}; not rewritten: no name for jax.numpy is free here", notes=_OPTIONS)
        text = written(ctx, node, names)
        imports = list(dict.fromkeys(s.edit for s in spelled.values() if s is not None and s.edit is not None))
        if len(imports) > 1:  # each at the end of the leading imports: one insertion, in order
            imports = [Edit(imports[0].start, imports[0].end, "".join(e.content for e in imports))]
        return ctx.finding(
            CODE,
            node,
            f"{head}; used as a value, it becomes the element-wise `{shorten(text, 80)}`",
            (ctx.replace(node, text), *imports),
            description=f"compute it with jax.numpy: `{shorten(text, 80)}`",
        )


class BooleanOperatorOnTracedValue309(Rule):
    """``not``, ``and``, ``or`` of a traced boolean, used as a value.

    Python's boolean operators need a Python bool, and a tracer has none::

        def cond_fun(x):
            return not jnp.allclose(x, 10.0)

        lax.while_loop(cond_fun, body_fun, 0.0)
        # jax.errors.TracerBoolConversionError: Attempted boolean conversion of traced array

    Used as a value, jax.numpy's logical functions compute the same::

            return jnp.logical_not(jnp.allclose(x, 10.0))

    ``momentum = momentum or self.momentum``, where ``momentum`` is an optional
    parameter (default None) a jit traces, works while calls leave it out and
    fails once one passes a number; ``self.momentum if momentum is None else
    momentum`` is what it means (objax#92, `semantics.optional_defaults`).

    Valid: ``not`` of a Python value (a static flag, ``x.ndim == 1``); an
    operation outside any trace; ``if not t:``, a Python condition, is another
    rule's. Reported: an operand that may not be a boolean (``a and b``
    returns an operand), one that would be evaluated where Python skips it,
    a chained comparison inside.
    """

    code = CODE
    name = "boolean-operator-on-traced-value"
    summary = "`not`/`and`/`or` of a traced boolean takes a Python bool: use jnp.logical_not/logical_and/logical_or"
    required = (("jax",), ("not", "and", "or"))
    follows_callees = True

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """``not`` and ``and``/``or`` operations."""
        return [
            node for node in facts.nodes
            if isinstance(node, ast.BoolOp) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not))
        ]

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return BooleanOperators(analysis).findings()
