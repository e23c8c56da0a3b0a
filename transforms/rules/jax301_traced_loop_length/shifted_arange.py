"""``jnp.arange(a - 1, a + 1)`` with a traced ``a``: a static length at a traced offset.

The size of ``arange(start, stop)`` is ``stop - start``; when both bounds are one
expression ``a`` plus or minus int literals, that difference is a Python int
whatever ``a`` holds, and only the offset is traced. ``jnp.arange(-1, 1) + a``
builds the same ints with a static size (jax#19433). Proof obligations, each
refused by returning None:

* two positional bounds, no step, no keywords, nothing starred;
* each bound is ``a``, ``a + k`` or ``a - k`` with ``k`` a Python int (a
  literal, or a value `int_values` proves one: ``width=3`` every call leaves),
  and ``a`` is the same text in both, made of names, attributes and literal
  subscripts only (reading it twice or once gives the same value).

``arange(a + k1, a + k2)`` and ``arange(k1, k2)`` then have the same size,
``max(0, k2 - k1)``, and the same ints once ``a`` is added.

With a float ``a`` the shifted form adds ``a`` once per element where
``arange`` accumulated from ``a + k``: the same values up to float rounding,
which the note says.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst

from jaxfix.transforms.semantics.module import ModuleContext

#: Where a binary operation can stand without parentheses.
_BARE = (cst.Arg, cst.Assign, cst.AnnAssign, cst.Return, cst.Element, cst.Index)


@dataclass(frozen=True)
class ShiftedArange:
    text: str
    #: The traced offset, as written.
    offset: str
    #: The size: "2", or "`width`" when the shift is a static name.
    length: str


def _literal(expr: cst.BaseExpression) -> int | None:
    if isinstance(expr, cst.Integer):
        return int(expr.value)
    return None


def _offset_and_shift(
    ctx: ModuleContext, bound: cst.BaseExpression, is_int: Callable[[cst.BaseExpression], bool]
) -> tuple[str, str] | None:
    """(``a``'s text, the shift's text) for ``a``, ``a + k``, ``a - k``, ``k + a`` with ``k`` an int."""
    if isinstance(bound, cst.BinaryOperation) and isinstance(bound.operator, (cst.Add, cst.Subtract)):
        if is_int(bound.right) and _plain(bound.left):
            shift = _atom(ctx, bound.right)
            return ctx.code(bound.left), shift if isinstance(bound.operator, cst.Add) else _negated(shift)
        if isinstance(bound.operator, cst.Add) and is_int(bound.left) and _plain(bound.right):
            return ctx.code(bound.right), _atom(ctx, bound.left)
        return None
    return (ctx.code(bound), "0") if _plain(bound) else None


def _atom(ctx: ModuleContext, expr: cst.BaseExpression) -> str:
    text = ctx.code(expr)
    return text if isinstance(expr, (cst.Integer, cst.Name, cst.Attribute, cst.Subscript, cst.Call)) else f"({text})"


def _negated(text: str) -> str:
    return text[1:] if text.startswith("-") and text[1:].isdigit() else f"-{text}"


def _plain(expr: cst.BaseExpression) -> bool:
    """Names, attributes and subscripts by int literals: reading it is pure."""
    if isinstance(expr, cst.Name):
        return True
    if isinstance(expr, cst.Attribute):
        return _plain(expr.value)
    if isinstance(expr, cst.Subscript):
        return _plain(expr.value) and all(
            isinstance(e.slice, cst.Index) and _literal(e.slice.value) is not None for e in expr.slice
        )
    return False


def shifted_arange(
    ctx: ModuleContext, call: cst.Call, is_int: Callable[[cst.BaseExpression], bool]
) -> ShiftedArange | None:
    """The static-size form of `call`, a ``jnp.arange(start, stop)``, when its proof holds;
    `is_int` says whether an expression is a Python int where it is written."""
    if len(call.args) != 2 or any(a.keyword is not None or a.star for a in call.args):
        return None
    start = _offset_and_shift(ctx, call.args[0].value, is_int)
    stop = _offset_and_shift(ctx, call.args[1].value, is_int)
    if start is None or stop is None or start[0] != stop[0]:
        return None
    offset = start[0]
    func = ctx.code(call.func)
    bounds = stop[1] if start[1] == "0" else f"{start[1]}, {stop[1]}"
    text = f"{func}({bounds}) + {offset}"
    parent = ctx.parent(call)
    if not isinstance(parent, _BARE):
        text = f"({text})"
    low, high = _literal_value(start[1]), _literal_value(stop[1])
    length = str(max(0, high - low)) if low is not None and high is not None else f"`{stop[1]}`" if start[1] == "0" else (
        f"`{stop[1]} - ({start[1]})`"
    )
    return ShiftedArange(text, offset, length)


def _literal_value(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None
