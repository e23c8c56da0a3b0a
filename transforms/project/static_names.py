"""The pre-filter's view of the project: which functions other modules jit with static arguments.

A module that imports such a function may be a caller JAX101/JAX201 must
check, and need never say ``static_arg`` itself. The first pass over the
project is a byte search of every module (`search`): the module-level names
a ``static_arg`` may belong to, with the module that defines them. A file
is let through for them (`StaticNames.admitted`) only when it can reach one
the ways `external.definition_of` follows: an import statement that names it
(``from .model import step``, a re-export included), or an attribute ``.step``
in a file whose imports name a part of the defining module's dotted name
(``import pkg.model as m`` then ``m.step``), or a star import from a
module on that path that leaves a mention of the name. Every test is generous: more
names, more files, never fewer. A method or a nested function is never
reached through an import, so only definitions at column 0 count.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

_DEF_AT_TOP = re.compile(rb"^(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)
_STATEMENT_AT_TOP = re.compile(rb"^[^\s#)\]}]", re.MULTILINE)
_ASSIGNED_AT_TOP = re.compile(rb"(\w+)[ \t]*(?::[^=\n]*)?=[^=]")
#: An import statement (anywhere: a comment or a string only lets more through).
_IMPORTED = re.compile(rb"import[ \t]+(?:\([^)]*\)|(?:[^\n\\]|\\\r?\n)*)")
_FROM = re.compile(rb".*?\bfrom[ \t]+[\w.]+[ \t]+\Z")  # matched up to the ``import``
_CHAIN_TAIL = re.compile(rb"(?:[ \t]*\.[ \t]*\w+)+")
_NOT_BEFORE_A_NAME = frozenset(bytes([c]) for c in b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")
_WORD = re.compile(rb"\w+")
_COMMENT = re.compile(rb"#[^\n]*")


def module_level_names(data: bytes) -> set[str]:
    """Names a module may bind at module level to something jitted with static arguments.

    For each ``static_arg`` in a top-level statement: the name it assigns
    (``g = jax.jit(f,\n static_argnums=...)``, over as many lines as it
    takes), or, in a decorator, the function the decorator is on.
    """
    out: set[str] = set()
    tops: list[int] | None = None
    for match in re.finditer(rb"static_arg", data):
        if tops is None:
            tops = [m.start() for m in _STATEMENT_AT_TOP.finditer(data)]
        statement = _last_statement_start(data, match.start(), tops)
        if data.startswith(b"@", statement):
            decorated = _next_statement_start(data, match.end(), skip=b"@")
            defined = _DEF_AT_TOP.match(data, decorated) if decorated is not None else None
            if defined is not None:
                out.add(defined.group(1).decode("ascii", "replace"))
            continue
        assigned = _ASSIGNED_AT_TOP.match(data, statement)
        if assigned is not None:
            out.add(assigned.group(1).decode("ascii", "replace"))
    return out


def _last_statement_start(data: bytes, before: int, tops: list[int]) -> int:
    """Offset of the last line at or before `before` that starts a top-level statement
    (0 when none does); `tops` holds every such line's offset, in order."""
    line = data.rfind(b"\n", 0, before) + 1
    index = bisect.bisect_right(tops, line) - 1
    return tops[index] if index >= 0 else 0


def _next_statement_start(data: bytes, after: int, skip: bytes) -> int | None:
    """Offset of the next line after `after` that starts a top-level statement not starting with `skip`."""
    newline = data.find(b"\n", after)
    if newline < 0:
        return None
    for match in _STATEMENT_AT_TOP.finditer(data, newline + 1):
        if not data.startswith(skip, match.start()):
            return match.start()
    return None


@dataclass(frozen=True)
class StaticNames:
    """Module-level names jitted with static arguments -> the words of their modules' dotted names."""

    modules: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.modules)

    @functools.cached_property
    def _by_part(self) -> dict[str, set[str]]:
        """Each word of a defining module's dotted name -> the names defined under it."""
        out: dict[str, set[str]] = {}
        for name, parts in self.modules.items():
            for part in parts:
                out.setdefault(part, set()).add(name)
        return out

    def _under(self, words: set[str]) -> set[str]:
        by_part = self._by_part
        return set().union(*(by_part[w] for w in words if w in by_part))

    def admitted(self, data: bytes) -> tuple[str, ...]:
        """The names this file may use from the modules that define them (sorted; empty: none)."""
        if not self.modules or b"import" not in data:
            return ()
        words, starred, bound = _import_words(data)
        return self._admit(words, starred, lambda: _attributes_of(data, bound), lambda name: name.encode() in data)

    def admitted_view(self, view: ImportView | None) -> tuple[str, ...]:
        """`admitted` of the file `view` was made from (`import_view`), without its bytes."""
        if not self.modules or view is None:
            return ()
        return self._admit(view.words, view.starred, lambda: view.attributes, lambda name: name.encode() in view.text)

    def _admit(
        self,
        words: set[str] | frozenset[str],
        starred: set[str] | frozenset[str],
        attributes: Callable[[], set[str] | frozenset[str]],
        mentioned: Callable[[str], bool],
    ) -> tuple[str, ...]:
        out = {name for name in words if name in self.modules}
        if starred:
            out.update(n for n in self._under(set(starred)) if mentioned(n))
        through_module = self._under(set(words)) - out
        if through_module:
            out.update(through_module & attributes())
        return tuple(sorted(out))

    def admits_text(self, text: str) -> bool:
        return bool(self.admitted(text.encode("utf-8", "surrogatepass")))

    def digest(self, names: Iterable[str]) -> str:
        """What a cached result of a file that admitted `names` depends on."""
        parts = "\n".join(f"{n}:{','.join(sorted(self.modules[n]))}" for n in names)
        return hashlib.blake2b(parts.encode(), digest_size=12).hexdigest() if parts else ""


@dataclass(frozen=True)
class ImportView:
    """What `StaticNames.admitted` reads of a file, whatever names it is asked about: a warm run
    asks which modules may import each of many names, and reads each file once for all of them."""

    #: The words of the file's import statements, and of its star imports.
    words: frozenset[str]
    starred: frozenset[str]
    #: Every attribute read through a name an import binds (``m.step``).
    attributes: frozenset[str]
    #: The file's bytes, kept only when it has a star import (which admits a name it mentions).
    text: bytes = b""


def import_view(data: bytes) -> ImportView | None:
    """The file's `ImportView`; None when it imports nothing."""
    if b"import" not in data:
        return None
    words, starred, bound = _import_words(data)
    return ImportView(frozenset(words), frozenset(starred), frozenset(_attributes_of(data, bound)), data if starred else b"")


def _import_words(data: bytes) -> tuple[set[str], set[str], set[bytes]]:
    """The words of every import statement, those of star imports, and the names they bind."""
    words: set[str] = set()
    starred: set[str] = set()  # words of ``from pkg.model import *``: every name in it is bound
    bound: set[bytes] = set()
    for statement in _imports(data):
        found = {w.decode("ascii", "replace") for w in _WORD.findall(statement)}
        words.update(found)
        if b"*" in statement:
            starred.update(found)
        bound.update(_bound_by(statement))
    return words, starred, bound


def search(modules: Iterable[tuple[str, bytes]]) -> StaticNames:
    """The first pass: (dotted module name, its bytes) for each module of the project."""
    found: dict[str, set[str]] = {}
    for dotted, data in modules:
        if b"static_arg" not in data:
            continue
        for name in module_level_names(data):
            found.setdefault(name, set()).update(dotted.split("."))
    return StaticNames({name: frozenset(parts) for name, parts in found.items()})


def imported_names(data: bytes) -> frozenset[str]:
    """Every name the module's import statements may bind (generous: comments and strings count)."""
    return frozenset(n.decode("ascii", "replace") for statement in _imports(data) for n in _bound_by(statement))


def _bound_by(statement: bytes) -> set[bytes]:
    """The names an import statement binds: ``import a.b`` binds ``a``, ``... as m`` binds ``m``."""
    body = _COMMENT.sub(b"", statement)
    _, _, names = body.partition(b"import")
    out: set[bytes] = set()
    for item in names.replace(b"(", b" ").replace(b")", b" ").replace(b"\\", b" ").split(b","):
        parts = item.split()
        if len(parts) >= 3 and parts[-2] == b"as":
            out.add(parts[-1])
        elif parts:
            out.add(parts[0].split(b".")[0])
    # Text that only looks like an import (``r"import (.*)"`` in a string) binds no name:
    # an empty one would be found at every offset.
    return {name for name in out if _WORD.fullmatch(name)}


def _attributes_of(data: bytes, bases: set[bytes]) -> set[str]:
    """Every attribute read through a chain that starts at one of `bases` (``m.step``, ``pkg.model.step``)."""
    out: set[str] = set()
    for base in bases:
        at = data.find(base)
        while at >= 0:
            end = at + len(base)
            if at == 0 or data[at - 1 : at] not in _NOT_BEFORE_A_NAME:
                chain = _CHAIN_TAIL.match(data, end)
                if chain is not None:
                    out.update(w.decode("ascii", "replace") for w in _WORD.findall(chain.group(0)))
            at = data.find(base, end)
    return out


def _imports(data: bytes) -> Iterator[bytes]:
    """The text of each import statement (``from X import a, b``; ``import a.b as c``).

    Found by scanning for the keyword: an unanchored regex tries every offset.
    """
    at = data.find(b"import")
    while at >= 0:
        if at == 0 or data[at - 1 : at] not in _NOT_BEFORE_A_NAME:
            names = _IMPORTED.match(data, at)
            if names is not None:
                line = data.rfind(b"\n", 0, at) + 1
                head = _FROM.match(data, line, at)
                yield (head.group(0) if head is not None else b"") + names.group(0)
        at = data.find(b"import", at + 6)
