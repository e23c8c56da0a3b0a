"""Where a module writes a loop count that must be concrete, and that count's parts.

Three places need a concrete Python int (jax-behaviour.md 3e): the
``length`` of ``lax.scan``, the argument of ``range()`` that drives a Python
``for`` loop (or a comprehension), and the size given to ``jnp.arange``. A
count is usually a traced value passed through a *conversion* that asks for
a concrete value: ``n.item()``, ``int(n)``, ``operator.index(n)``, often after
``.astype(int)``. Rewrites keep the count and drop the conversions.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.core.textedit import apply_edits
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.traced_values import Source, TracedValues, conversion_operand
from jaxfix.transforms.semantics.vocabulary import LAX_PARAMETERS, SCAN, written_argument

ARANGE = "jax.numpy.arange"

_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float, cst.SimpleString)


class SiteKind(enum.Enum):
    SCAN = "scan"
    RANGE = "range"  # a Python for loop over range()
    COMPREHENSION = "comprehension"  # a comprehension over range()
    ARANGE = "arange"


@dataclass(frozen=True)
class Site:
    kind: SiteKind
    #: The scan or arange Call, the For, or the CompFor.
    node: cst.CSTNode
    #: The call that takes the count: the scan, range() or jnp.arange.
    call: cst.Call
    #: The count expressions written there (range and arange may take several).
    counts: tuple[cst.BaseExpression, ...]


@dataclass(frozen=True)
class Count:
    """A count that is traced where it is used."""

    site: Site
    expr: cst.BaseExpression
    source: Source
    #: The conversions inside expr whose operand is traced (``n.item()``, ``int(n)``).
    conversions: tuple[cst.Call, ...]

    @property
    def concretized_elsewhere(self) -> bool:
        """A name bound to ``n.item()`` somewhere else turned the tracer into a Python value."""
        at = self.source.concretized
        return at is not None and at not in self.conversions


def find_sites(ctx: ModuleContext) -> list[Site]:
    """Every scan length, range() loop and jnp.arange size in the module, in source order."""
    sites: list[Site] = []
    for call in ctx.calls:
        qualified = ctx.names.qualified_name(call.func)
        if qualified == SCAN:
            length = written_argument(call, LAX_PARAMETERS[SCAN], "length")
            if length is not None:
                sites.append(Site(SiteKind.SCAN, call, call, (length.value,)))
        elif qualified == ARANGE:
            counts = tuple(a.value for a in call.args if a.keyword is None and not a.star)
            if counts:
                sites.append(Site(SiteKind.ARANGE, call, call, counts))
        elif qualified == "builtins.range" and call.args and not any(a.star or a.keyword for a in call.args):
            loop = ctx.parent(call)
            if isinstance(loop, cst.For) and loop.iter is call:
                sites.append(Site(SiteKind.RANGE, loop, call, tuple(a.value for a in call.args)))
            elif isinstance(loop, cst.CompFor) and loop.iter is call:
                sites.append(Site(SiteKind.COMPREHENSION, loop, call, tuple(a.value for a in call.args)))
    return sites


def traced_counts(ctx: ModuleContext, values: TracedValues, site: Site) -> list[Count]:
    """The counts of a site that are certainly traced, each with its conversions."""
    out: list[Count] = []
    for expr in site.counts:
        source = values.source(expr)
        if source is not None:
            conversions = tuple(c for c in _calls_in(expr) if (o := conversion_operand(ctx, c)) is not None and values.source(o) is not None)
            out.append(Count(site, expr, source, conversions))
    return out


def _calls_in(expr: cst.BaseExpression) -> list[cst.Call]:
    found: list[cst.Call] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            found.append(node)

    expr.visit(_Calls())
    return found


def without_conversions(ctx: ModuleContext, count: Count, *, astype: bool) -> str:
    """The count's text with its conversions dropped (and ``.astype(...)`` under them when not `astype`).

    ``iters.astype(int).item()`` gives ``iters.astype(int)``, or ``iters``; an
    operand that is not atomic is parenthesised where the conversion sat
    inside a larger expression (``int(a + b) * 2`` gives ``(a + b) * 2``).
    """
    return apply_edits(ctx.code(count.expr), [_shifted(ctx, e, count.expr) for e in conversion_edits(ctx, count, astype=astype)])


def conversion_edits(ctx: ModuleContext, count: Count, *, astype: bool) -> list[Edit]:
    """Edits on the module's text replacing each conversion of the count by its operand."""
    edits: list[Edit] = []
    for call in count.conversions:
        if any(call in _calls_in(other) and other is not call for other in count.conversions):
            continue  # nested in another conversion: the outer edit covers it
        operand = _peel(ctx, call, astype=astype)
        text = ctx.code(operand)
        if call is not count.expr and not isinstance(operand, _ATOMS) and not operand.lpar:
            text = f"({text})"
        edits.append(ctx.replace(call, text))
    return edits


def _peel(ctx: ModuleContext, call: cst.Call, *, astype: bool) -> cst.BaseExpression:
    """The value under a conversion: through nested conversions, and through ``.astype`` unless kept."""
    operand: cst.BaseExpression = call
    while True:
        inner = conversion_operand(ctx, operand)
        if inner is None and not astype and _is_astype(operand):
            inner = operand.func.value  # type: ignore[union-attr]
        if inner is None:
            return operand
        operand = inner


def _is_astype(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "astype"


def _shifted(ctx: ModuleContext, edit: Edit, within: cst.CSTNode) -> Edit:
    base = ctx.start(within)
    return Edit(edit.start - base, edit.end - base, edit.content)
