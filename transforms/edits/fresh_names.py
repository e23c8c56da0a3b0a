"""Names a fix may introduce: every name a piece of code spells, and one it does not.

A repair that adds a binding (a loop body, the tuple bwd now receives, the test
hoisted into a ``with`` block) must not shadow or be shadowed by a name the code
around it uses: it picks `fresh_name` against `names_in` that code (or against
the module's bound names).
"""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst


def names_in(node: cst.CSTNode) -> set[str]:
    """Every name spelled in `node` (read, bound, or an attribute's)."""
    found: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

    node.visit(Names())
    return found


def fresh_name(base: str, used: Iterable[str]) -> str:
    """`base`, or ``base_2``, ``base_3``... the first not in `used`."""
    taken = set(used)
    if base not in taken:
        return base
    n = 2
    while f"{base}_{n}" in taken:
        n += 1
    return f"{base}_{n}"
