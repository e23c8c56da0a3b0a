"""Sequences of identifiers, typed so that one name cannot pass for several.

A ``str`` is a ``Sequence[str]`` of its characters: ``add(..., "horizon")``
once made ``h``, ``o``, ``r``... static (issue 17). APIs that take several
names take a ``Names`` (a tuple) and call `names` on what they are given,
which refuses a lone string loudly instead of iterating it.
"""

from __future__ import annotations

from collections.abc import Iterable

#: Identifiers (parameter names, words): never a bare ``str``.
Names = tuple[str, ...]


def names(items: Iterable[str]) -> Names:
    """`items` as a tuple of names; a single string is a caller's bug, not a sequence."""
    if isinstance(items, (str, bytes)):
        raise TypeError(f"expected a sequence of names, got the single string {items!r}")
    return tuple(items)
