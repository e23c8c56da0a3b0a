"""Where in a Python tuple or list a followed value sits, so that reading the sequence back
(``t[-1]``, ``t[:-1]``, ``for x in t``) is known to give the value, or known not to.

`sinks.Follower` climbs from a value into the tuple that holds it (``widths + (n,)``, flax#1516's
decoder widths) and then follows the tuple. An element read is the value only at its position;
claiming another element's destination for it would put a finding where the value never goes.
A position is counted from the start and from the end, each when the sequence's writing shows it
(a starred element before or after hides it; a concatenation keeps the side it was added on).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst


@dataclass(frozen=True)
class Place:
    """The value's index from the start, and from the end (0 = last); None where unknown."""

    start: int | None
    end: int | None


UNKNOWN = Place(None, None)


def element_place(sequence: cst.Tuple | cst.List, element: cst.BaseElement) -> Place:
    """The place of `element` in the display `sequence`."""
    elements = list(sequence.elements)
    index = elements.index(element)
    starred = [isinstance(e, cst.StarredElement) for e in elements]
    start = None if any(starred[:index]) else index
    end = None if any(starred[index + 1 :]) else len(elements) - 1 - index
    return Place(start, end)


def concatenated(place: Place, operation: cst.BinaryOperation, operand: cst.BaseExpression) -> Place:
    """The place after ``a + b`` with the holder `operand` one side of it."""
    if not isinstance(operation.operator, cst.Add):
        return UNKNOWN
    return Place(place.start, None) if operation.left is operand else Place(None, place.end)


def _literal(expr: cst.BaseExpression | None) -> int | None:
    if isinstance(expr, cst.Integer):
        return int(expr.value)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus) and isinstance(expr.expression, cst.Integer):
        return -int(expr.expression.value)
    return None


def indexed(place: Place, index: cst.BaseExpression) -> bool | None:
    """Is ``seq[index]`` the value: True, False, or None when the writing does not say."""
    k = _literal(index)
    if k is None:
        return None
    if k >= 0 and place.start is not None:
        return k == place.start
    if k < 0 and place.end is not None:
        return -k - 1 == place.end
    return None


def sliced(place: Place, bounds: cst.Slice) -> Place | None:
    """The place in ``seq[lower:upper]`` (no step); None when the slice surely leaves it out."""
    if bounds.step is not None:
        return UNKNOWN
    lower = 0 if bounds.lower is None else _literal(bounds.lower)
    upper = _literal(bounds.upper) if bounds.upper is not None else None
    if (bounds.lower is not None and lower is None) or (bounds.upper is not None and upper is None):
        return UNKNOWN
    start, end = place.start, place.end
    if lower is not None and lower >= 0:
        if start is not None and start < lower:
            return None
        start = start - lower if start is not None else None
    elif lower is not None:  # a negative lower bound counts from the end
        if end is not None and end >= -lower:
            return None
        start = None
    if upper is not None and upper >= 0:
        if start is not None and place.start is not None and place.start >= upper:
            return None
        end = None
    elif upper is not None:
        if end is not None and end < -upper:
            return None
        end = end + upper if end is not None else None
    return Place(start, end)


def unpacked(place: Place, targets: cst.Tuple | cst.List) -> int | None:
    """Which target of ``a, b = seq`` (no star) takes the value at `place`: its index, or None
    when the counts disagree or the place is not known."""
    count = len(targets.elements)
    if any(isinstance(e, cst.StarredElement) for e in targets.elements):
        return None
    if place.start is not None and (place.end is None or place.start + place.end + 1 == count):
        return place.start if place.start < count else None
    if place.end is not None and place.start is None and place.end < count:
        return count - 1 - place.end
    return None
