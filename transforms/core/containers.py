"""What Python's own containers do that the analysis must see: the methods that change a dict,
list or set in place. The analysis reads a container as the display it was built from only where
no code changes it; the slicer keeps the code that does (it and the semantics layers share this
table, and neither may import the other)."""

from __future__ import annotations

#: Methods of a dict, list or set that change what it holds.
CHANGING_METHODS = frozenset(
    {"update", "setdefault", "pop", "popitem", "clear", "append", "extend", "insert", "remove", "add", "discard",
     "sort", "reverse", "__setitem__", "__delitem__"}
)  # fmt: skip
