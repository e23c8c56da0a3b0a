"""Dropping one element of a tuple written out, in the spelling it has.

Several repairs take one value out of a group that is written as a tuple in
several places at once (a custom_vjp's residuals and bwd's unpacking of them;
a loop's carry, its unpacking, the body's return and the result's unpacking):
each place loses the element at the same index.
"""

from __future__ import annotations

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.semantics.module import ModuleContext


def without_element(ctx: ModuleContext, sequence: cst.Tuple | cst.List, index: int) -> Edit:
    """The tuple (or list) display without its element at `index`; a tuple left with one element
    keeps its comma, and its parentheses stay where it had them."""
    kept = [ctx.code(e.value) for i, e in enumerate(sequence.elements) if i != index]
    text = ", ".join(kept)
    if isinstance(sequence, cst.List):
        return ctx.replace(sequence, f"[{text}]")
    if len(kept) == 1:
        text += ","
    return ctx.replace(sequence, f"({text})" if sequence.lpar else text)
