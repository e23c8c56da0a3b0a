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
from jaxfix.transforms.semantics.offset_bounds import offset_and_shift, render, size_text

#: Where a binary operation can stand without parentheses.
_BARE = (cst.Arg, cst.Assign, cst.AnnAssign, cst.Return, cst.Element, cst.Index)


@dataclass(frozen=True)
class ShiftedArange:
    text: str
    #: The traced offset, as written.
    offset: str
    #: The size: "2", or "`width`" when the shift is a static name.
    length: str


def shifted_arange(
    ctx: ModuleContext, call: cst.Call, is_int: Callable[[cst.BaseExpression], bool]
) -> ShiftedArange | None:
    """The static-size form of `call`, a ``jnp.arange(start, stop)``, when its proof holds;
    `is_int` says whether an expression is a Python int where it is written."""
    if len(call.args) != 2 or any(a.keyword is not None or a.star for a in call.args):
        return None
    start = offset_and_shift(ctx, call.args[0].value, is_int)
    stop = offset_and_shift(ctx, call.args[1].value, is_int)
    if start is None or stop is None or start[0] != stop[0]:
        return None
    offset = start[0]
    func = ctx.code(call.func)
    low, high = render(start[1]), render(stop[1])
    bounds = high if low == "0" else f"{low}, {high}"
    text = f"{func}({bounds}) + {offset}"
    parent = ctx.parent(call)
    if not isinstance(parent, _BARE):
        text = f"({text})"
    size, value = size_text(start[1], stop[1])
    length = size if value is not None else f"`{size}`"
    return ShiftedArange(text, offset, length)

