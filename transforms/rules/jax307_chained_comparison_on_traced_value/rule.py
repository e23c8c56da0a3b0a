"""JAX307: a chained comparison (``lo < x < hi``) of a traced value, used as a value.

Python evaluates ``a < b < c`` as ``(a < b) and (b < c)``: the ``and`` takes
a Python bool of ``a < b``, which a tracer refuses (TracerBoolConversionError
under jit, vmap, a control-flow body). Where the result is used as a value
(a mask handed to ``jnp.piecewise``/``jnp.where``, returned, stored), the
element-wise form ``(a < b) & (b < c)`` is what was meant: for Python numbers
it gives the same bool, for arrays the mask per element. It is exact when
each middle operand is evaluated once in the chain and twice in the rewrite
without a difference: a name, a literal, an attribute or subscript of those,
arithmetic on them, a jax.numpy function of them.

A chain that is itself a Python condition (``if lo < x < hi:``) is left to
the rules for a Python ``if`` on a traced value (JAX302, JAX305): ``&`` alone
would not make it work there.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

import libcst as cst

from jaxfix.transforms.core.findings import Edit, Finding, shorten
from jaxfix.transforms.core.rule import Rule
from jaxfix.transforms.gate.screen import Facts
from jaxfix.transforms.semantics.analysis import Analysis
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.purity import PURE_FUNCTION_PREFIXES

CODE = "JAX307"

#: Comparison operators jnp computes element-wise (``in`` and ``is`` are Python's own).
_ELEMENTWISE = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual, cst.Equal, cst.NotEqual)
#: Where the chain's value is taken as a Python bool: the rewrite would not help there.
_CONDITIONS = (cst.If, cst.While, cst.Assert, cst.IfExp)


class ChainedComparisons:
    """One module's JAX307 findings."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.ctx = analysis.ctx

    def findings(self) -> Iterator[Finding]:
        for node in self.ctx.nodes_of(cst.Comparison):
            if len(node.comparisons) < 2 or not all(isinstance(c.operator, _ELEMENTWISE) for c in node.comparisons):
                continue
            operands = [node.left, *(c.comparator for c in node.comparisons)]
            traced = self.analysis.traced.first_value_source(operands)
            if traced is None or self._condition(node):
                continue
            finding = self._finding(node, operands, traced[0], traced[1].reason)
            if finding.fix is not None or traced[1].field is None:
                yield finding  # a pytree field where no rewrite serves: JAX306's

    def _condition(self, node: cst.Comparison) -> bool:
        """The chain's value is taken as a Python bool: an ``if``/``while``/``assert`` test, ``not``,
        ``and``/``or``."""
        parent = self.ctx.parent(node)
        if isinstance(parent, _CONDITIONS) and parent.test is node:
            return True
        if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
            return True
        return isinstance(parent, cst.BooleanOperation)

    def _finding(self, node: cst.Comparison, operands: list[cst.BaseExpression], traced: cst.BaseExpression, why: str) -> Finding:
        ctx = self.ctx
        chain = ctx.code(node)
        first = f"{ctx.code(node.left)} {_operator(ctx, node.comparisons[0])} {ctx.code(node.comparisons[0].comparator)}"
        head = (
            f"`{shorten(chain)}` runs as `and` of its links, which takes a Python bool of `{shorten(first)}`, but "
            f"`{shorten(ctx.code(traced))}` is a tracer ({why})"
        )
        twice = next((o for o in operands[1:-1] if not _evaluated_alike(ctx, o)), None)
        if twice is not None:
            return ctx.finding(
                CODE,
                node,
                f"{head}; not rewritten: `{shorten(ctx.code(twice))}` would be evaluated twice",
                notes=("option: bind the middle value to a name, then `(lo < x) & (x < hi)`",),
            )
        links = [
            f"({ctx.code(left)} {_operator(ctx, c)} {ctx.code(c.comparator)})"
            for left, c in zip(operands, node.comparisons)
        ]
        text = " & ".join(links)
        if node.lpar:
            text = f"({text})"
        edit = Edit(ctx.start(node), ctx.end(node), text)
        return ctx.finding(
            CODE,
            node,
            f"{head}; used as a value, it becomes the element-wise `{shorten(text, 80)}`",
            (edit,),
            description=f"compare element-wise: `{shorten(text, 80)}`",
        )


def _operator(ctx: ModuleContext, target: cst.ComparisonTarget) -> str:
    return ctx.code(target.operator).strip()


def _evaluated_alike(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    """Evaluated twice, it gives the same value and does nothing else: a name, a literal, an
    attribute or subscript of those, arithmetic on them, a jax.numpy function of them."""
    if isinstance(expr, (cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)):
        return True
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        return _evaluated_alike(ctx, expr.expression)
    if isinstance(expr, cst.BinaryOperation):
        return _evaluated_alike(ctx, expr.left) and _evaluated_alike(ctx, expr.right)
    if isinstance(expr, cst.Attribute):
        return _evaluated_alike(ctx, expr.value)
    if isinstance(expr, cst.Subscript):
        return _evaluated_alike(ctx, expr.value) and all(
            isinstance(e.slice, cst.Index) and _evaluated_alike(ctx, e.slice.value) for e in expr.slice
        )
    if isinstance(expr, cst.Call):
        qualified = ctx.names.qualified_name(expr.func) or ""
        return qualified.startswith(PURE_FUNCTION_PREFIXES) and all(
            not a.star and _evaluated_alike(ctx, a.value) for a in expr.args
        )
    return False


class ChainedComparisonOnTracedValue307(Rule):
    """A chained comparison ``lo < x < hi`` of a traced value, used as a value.

    Python runs ``lo < x < hi`` as ``(lo < x) and (x < hi)``; the ``and``
    needs a Python bool of ``lo < x``, and a tracer has none::

        def f(x):
            return jnp.piecewise(x, [x < 0, 0 < x < 1], [lambda x: -x, lambda x: x])

        jax.jit(f)(0.5)
        # jax.errors.TracerBoolConversionError: Attempted boolean conversion of traced array

    Used as a value (a mask, a return value), the element-wise form is what
    was meant, and gives the same result for Python numbers::

            return jnp.piecewise(x, [x < 0, (0 < x) & (x < 1)], [lambda x: -x, lambda x: x])

    Valid: ``if 0 < n < 10:`` on a Python int; a chain of static values; a
    chain in an ``if`` on a tracer is another rule's (``&`` would not make the
    ``if`` work). A middle operand that a rewrite would evaluate twice (a
    call) is reported.
    """

    code = CODE
    name = "chained-comparison-on-traced-value"
    summary = "a chained comparison `lo < x < hi` of a traced value takes a Python bool: compare element-wise with `&`"
    required = (("jax",),)
    follows_callees = True

    @classmethod
    def seeds(cls, facts: Facts) -> list[ast.AST]:
        """The chained comparisons of the module."""
        return [node for node in facts.nodes if isinstance(node, ast.Compare) and len(node.ops) >= 2]

    def check(self, analysis: Analysis) -> Iterable[Finding]:
        return ChainedComparisons(analysis).findings()
