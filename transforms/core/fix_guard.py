"""The last check on every fix: the program it writes compiles, and reads no name that nothing binds.

Each rule proves its own rewrite, but a proof can miss where an edit lands:
a `lax.switch` over a module-level table once had its branches rebound
*in the table*, writing ``partial(poly, k=k)`` at module level where no
``k`` exists (issue 17.1). This guard holds every fix to two facts that need
no knowledge of the rule: the fixed module still compiles, and no scope of it
reads a name that is bound nowhere it could come from (the scope itself, an
enclosing function, the module, a ``global`` assignment, the builtins) unless
the original already did the same. A fix that fails either becomes a report.

It cannot tell a name bound to the wrong value from the right one: that
stays each rule's proof. It is computed with the standard library's
``symtable`` (the compiler's own scope analysis), once for the original text
and once per fix.
"""

from __future__ import annotations

import builtins
import re
import symtable
import warnings
from collections import Counter
from collections.abc import Iterator

#: Names every module can read without binding them.
_ALWAYS_BOUND = frozenset(dir(builtins)) | {
    "__name__", "__file__", "__doc__", "__builtins__", "__spec__", "__loader__", "__package__",
    "__path__", "__annotations__", "__dict__", "__cached__", "__debug__",
}  # fmt: skip

#: Builtins of Python versions newer than the one running jaxfix (PEP 814's frozendict).
_NEWER_BUILTINS = {(3, 15): frozenset({"frozendict"})}

Unbound = Counter[tuple[tuple[str, ...], str]]
_STAR_IMPORT = re.compile(r"^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]*\*", re.MULTILINE)


def builtins_of(target_version: tuple[int, int]) -> frozenset[str]:
    """The names the builtins of the project's oldest Python bind (what a fix may use unimported)."""
    extra = [names for version, names in _NEWER_BUILTINS.items() if target_version >= version]
    return _ALWAYS_BOUND.union(*extra)


def unbound_reads(text: str, always_bound: frozenset[str] = _ALWAYS_BOUND) -> Unbound | None:
    """(scope path, name) for every name a scope reads that nothing binds; None when the text
    does not compile, an empty count when a star import makes every name possibly bound."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            top = symtable.symtable(text, "<fix>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if _STAR_IMPORT.search(text):  # symtable does not record it; a string that looks like one only loosens the guard
        return Counter()
    module_bound = {s.get_name() for s in top.get_symbols() if _binds(s)}
    module_bound |= set(_assigned_through_global(top))
    out: Unbound = Counter()
    for path, table in _tables(top, ()):
        for symbol in table.get_symbols():
            if not symbol.is_referenced():
                continue
            name = symbol.get_name()
            if table.get_type() == "module" or symbol.is_global():
                if not _binds(symbol) or table.get_type() != "module":
                    if name not in module_bound and name not in always_bound:
                        out[(path, name)] += 1
            # A local, a parameter or a free name (an enclosing function binds it) is bound.
    return out


def _binds(symbol: symtable.Symbol) -> bool:
    return symbol.is_assigned() or symbol.is_imported() or symbol.is_parameter() or symbol.is_namespace()


def _tables(table: symtable.SymbolTable, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], symtable.SymbolTable]]:
    yield path, table
    for child in table.get_children():
        yield from _tables(child, (*path, f"{child.get_type()}:{child.get_name()}"))


def _assigned_through_global(table: symtable.SymbolTable) -> Iterator[str]:
    """Names some function assigns after declaring them ``global``: bound at module level at run time."""
    for child in table.get_children():
        for symbol in child.get_symbols():
            if symbol.is_declared_global() and symbol.is_assigned():
                yield symbol.get_name()
        yield from _assigned_through_global(child)


def new_unbound_reads(
    before: Unbound | None, after_text: str, always_bound: frozenset[str] = _ALWAYS_BOUND
) -> list[str] | None:
    """The names the fixed text reads unbound that the original did not; None: it does not compile."""
    after = unbound_reads(after_text, always_bound)
    if after is None:
        return None
    if before is None:
        return []  # the original did not compile either: nothing to compare with
    return sorted({name for (path, name), n in after.items() if n > before.get((path, name), 0)})
