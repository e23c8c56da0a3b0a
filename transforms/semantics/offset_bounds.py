"""Bounds written as one offset plus Python ints: ``a``, ``a + k``, ``a - k``, ``k + a``.

``jnp.arange(x[0] - 1, x[0] + 1)`` and ``data[i:i + BLOCK]`` have a size that is a
Python int whatever the offset holds: the difference of the two shifts. JAX301
rewrites such an arange (`shifted_arange`), JAX304 such a slice
(`repairs.dynamic_slice`); both read the bounds here.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from jaxfix.transforms.semantics.module import ModuleContext

Shift = list[tuple[int, str]]


def offset_and_shift(
    ctx: ModuleContext, bound: cst.BaseExpression, is_int: Callable[[cst.BaseExpression], bool]
) -> tuple[str, Shift] | None:
    """(the offset's text, the shift's text) for a sum whose one term that is no int (`is_int`) is
    added and pure to read (`plain`): ``a``, ``a + k``, ``a - k``, ``k + a``, ``a + B + 1``; None
    otherwise. The shift is its signed int terms (`render` writes them)."""
    terms = _terms(bound, 1)
    if terms is None:
        return None
    offsets = [(sign, t) for sign, t in terms if not is_int(t)]
    if len(offsets) != 1 or offsets[0][0] != 1 or not plain(offsets[0][1]):
        return None
    return ctx.code(offsets[0][1]), [(sign, _atom(ctx, t)) for sign, t in terms if is_int(t)]


def render(terms: list[tuple[int, str]]) -> str:
    """``[(1, "B"), (1, "1")]`` -> ``B + 1``: literals summed last, equal terms of opposite signs cancelled."""
    literal = sum(sign * int(text) for sign, text in terms if _is_literal(text))
    symbols: list[tuple[int, str]] = []
    for sign, text in terms:
        if _is_literal(text):
            continue
        opposite = (-sign, text)
        if opposite in symbols:
            symbols.remove(opposite)
        else:
            symbols.append((sign, text))
    parts = [*symbols, *([(1 if literal >= 0 else -1, str(abs(literal)))] if literal or not symbols else [])]
    out = ""
    for i, (sign, text) in enumerate(parts):
        out += (("-" if sign < 0 else "") + text) if i == 0 else (f" {'+' if sign > 0 else '-'} {text}")
    return out


def size_text(start: Shift, stop: Shift) -> tuple[str, int | None]:
    """The size ``stop - start`` as text (`render`), and as an int when it is one (floored at 0)."""
    text = render([*stop, *((-sign, t) for sign, t in start)])
    value = literal_value(text)
    return (str(max(0, value)), max(0, value)) if value is not None else (text, None)


def _is_literal(text: str) -> bool:
    return text.isdigit()


def _terms(expr: cst.BaseExpression, sign: int) -> list[tuple[int, cst.BaseExpression]] | None:
    """The signed terms of a chain of ``+`` and ``-`` (parentheses kept as one term)."""
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract)) and not expr.lpar:
        left = _terms(expr.left, sign)
        right = _terms(expr.right, sign if isinstance(expr.operator, cst.Add) else -sign)
        return None if left is None or right is None else [*left, *right]
    return [(sign, expr)]


def _atom(ctx: ModuleContext, expr: cst.BaseExpression) -> str:
    text = ctx.code(expr)
    return text if isinstance(expr, (cst.Integer, cst.Name, cst.Attribute, cst.Subscript, cst.Call)) else f"({text})"


def plain(expr: cst.BaseExpression) -> bool:
    """Names, attributes and subscripts by int literals: reading it twice gives one value."""
    if isinstance(expr, cst.Name):
        return True
    if isinstance(expr, cst.Attribute):
        return plain(expr.value)
    if isinstance(expr, cst.Subscript):
        return plain(expr.value) and all(
            isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.Integer) for e in expr.slice
        )
    return False


def literal_value(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None
