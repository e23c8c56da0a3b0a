"""A config written out in the source, read as a tree of containers and leaves.

The containers are what freezing changes: dict, list and set displays, the
calls ``dict(...)``, ``list(...)``, ``set(...)`` whose arguments are written
out too, tuples (kept, but they may hold a list), and mappings that are
already frozen (``frozendict({...})``, kept, but they may hold a list). The
leaves are everything else; they stay as they are, so `value_kind` says
whether each one is hashable.

Anything built at run time (a comprehension, ``dict(base)``) is not a
literal: `LiteralReader.read` returns None for it.

Inside a mapping that is already frozen, what its constructor freezes by
itself (`Freezes`) counts as frozen: flax's FrozenDict freezes the dicts
nested in it, ml_collections' FrozenConfigDict freezes lists and sets too.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import libcst as cst

from jaxfix.transforms.semantics.constants import NOT_CONSTANT, constant_value
from jaxfix.transforms.semantics.hashability import Kind, ValueClassifier, ValueKind
from jaxfix.transforms.semantics.module import ModuleContext

#: Builtins that build a container from written-out arguments.
_BUILDERS = {
    "builtins.dict": "dict",
    "builtins.list": "list",
    "builtins.set": "set",
    "builtins.tuple": "tuple",
    "builtins.frozenset": "frozenset",
}

#: Key of an entry whose key or position cannot be read.
UNKNOWN_KEY = object()

# What an enclosing frozen mapping's constructor freezes by itself.
NOTHING, DICTS, EVERYTHING = "nothing", "dicts", "everything"


@dataclass(frozen=True)
class Freezes:
    """What a frozen mapping's constructor freezes inside it, besides itself."""

    nested_dicts: bool = False
    nested_sequences: bool = False

    @property
    def managed(self) -> str:
        return EVERYTHING if self.nested_sequences else DICTS if self.nested_dicts else NOTHING


@dataclass
class Leaf:
    node: cst.BaseExpression
    value: ValueKind


@dataclass
class Container:
    """A container as written. `kind` is what Python builds: dict, list, set, tuple, frozenset, frozen."""

    node: cst.BaseExpression
    kind: str
    #: "display" ({...}, [...]), "call" (dict(...), list(...)), "frozen" (frozendict(...) and kin)
    form: str
    entries: list[tuple[object, Leaf | Container]] = field(default_factory=list)
    #: For a call: the display it wraps, if any (``list([1, 2])``), whose brackets stay.
    inner: cst.BaseExpression | None = None

    @property
    def needs_freezing(self) -> bool:
        """Whether freezing changes this container or anything in it."""
        if self.kind in ("dict", "list", "set"):
            return True
        return any(isinstance(c, Container) and c.needs_freezing for _, c in self.entries)

    def leaves(self) -> Iterator[Leaf]:
        for _, child in self.entries:
            if isinstance(child, Leaf):
                yield child
            else:
                yield from child.leaves()

    def containers(self) -> Iterator[Container]:
        yield self
        for _, child in self.entries:
            if isinstance(child, Container):
                yield from child.containers()


class LiteralReader:
    """Reads literal configs of one module; `frozen` maps frozen mapping constructors to what they freeze."""

    def __init__(self, ctx: ModuleContext, values: ValueClassifier, frozen: Mapping[str, Freezes]) -> None:
        self.ctx = ctx
        self.values = values
        self.frozen = frozen

    def read(self, expr: cst.BaseExpression, managed: str = NOTHING, _depth: int = 0) -> Container | None:
        """The container `expr` writes out, or None when it is not a literal container.

        `managed`: what the enclosing frozen mapping's constructor freezes by itself.
        """
        if _depth > 20:
            return None
        inside_dicts = managed in (DICTS, EVERYTHING)
        if isinstance(expr, cst.Dict):
            return self._dict_display(expr, expr, "frozen" if inside_dicts else "dict", "display", managed, _depth)
        if isinstance(expr, (cst.List, cst.Set, cst.Tuple)):
            kind = {cst.List: "list", cst.Set: "set", cst.Tuple: "tuple"}[type(expr)]
            if managed == EVERYTHING:
                kind = {"list": "tuple", "set": "frozenset"}.get(kind, kind)
                inner = EVERYTHING
            else:
                inner = NOTHING
            return Container(expr, kind, "display", self._elements(expr.elements, inner, _depth))
        if isinstance(expr, cst.Call):
            return self._call(expr, managed, _depth)
        return None

    def child(self, expr: cst.BaseExpression, managed: str, depth: int) -> Leaf | Container:
        container = self.read(expr, managed, depth + 1)
        return container if container is not None else Leaf(expr, self.values.classify(expr))

    def _dict_display(
        self, expr: cst.Dict, node: cst.BaseExpression, kind: str, form: str, managed: str, depth: int
    ) -> Container:
        out = Container(node, kind, form)
        for element in expr.elements:
            if isinstance(element, cst.StarredDictElement):
                reason = f"`**{self.ctx.code(element.value)}` unpacks a mapping we cannot follow"
                out.entries.append((UNKNOWN_KEY, Leaf(element.value, ValueKind(Kind.UNKNOWN, reason))))
                continue
            key = constant_value(self.ctx, element.key)
            out.entries.append((UNKNOWN_KEY if key is NOT_CONSTANT else key, self.child(element.value, managed, depth)))
        return out

    def _elements(self, elements, managed: str, depth: int) -> list[tuple[object, Leaf | Container]]:
        out: list[tuple[object, Leaf | Container]] = []
        known = True
        for i, element in enumerate(elements):
            if isinstance(element, cst.StarredElement):
                known = False
                unpacked = self.values.classify(element.value)
                if unpacked.kind is Kind.PLAIN:  # `*target_hw` of a tuple of ints: a hashable whole holds hashable items
                    reason = f"`*{self.ctx.code(element.value)}` unpacks the items of a plain value ({unpacked.reason})"
                    out.append((UNKNOWN_KEY, Leaf(element.value, ValueKind(Kind.PLAIN, reason))))
                    continue
                reason = f"`*{self.ctx.code(element.value)}` unpacks values we cannot follow"
                out.append((UNKNOWN_KEY, Leaf(element.value, ValueKind(Kind.UNKNOWN, reason))))
                continue
            out.append((i if known else UNKNOWN_KEY, self.child(element.value, managed, depth)))
        return out

    def _call(self, call: cst.Call, managed: str, depth: int) -> Container | None:
        qualified = self.ctx.names.qualified_name(call.func) or self._builtin_frozen(call.func)
        if qualified in self.frozen:
            return self._frozen(call, self.frozen[qualified], depth)  # type: ignore[index]
        kind = _BUILDERS.get(qualified or "")
        if kind is None or any(a.star for a in call.args):
            return None
        positional = [a for a in call.args if a.keyword is None]
        keywords = [a for a in call.args if a.keyword is not None]
        if len(positional) > 1 or (keywords and kind != "dict"):
            return None
        if kind == "dict":
            inner_managed = managed if managed in (DICTS, EVERYTHING) else NOTHING
            kind = "frozen" if inner_managed != NOTHING else "dict"
        else:
            inner_managed = EVERYTHING if managed == EVERYTHING else NOTHING
            if managed == EVERYTHING:
                kind = {"list": "tuple", "set": "frozenset"}.get(kind, kind)
        out = Container(call, kind, "call")
        if positional:
            inner = positional[0].value
            if isinstance(inner, cst.Dict) and kind in ("dict", "frozen"):
                out.entries = self._dict_display(inner, inner, kind, "display", inner_managed, depth).entries
            elif isinstance(inner, (cst.List, cst.Tuple, cst.Set)) and kind not in ("dict", "frozen"):
                out.entries = self._elements(inner.elements, inner_managed, depth)
            else:
                return None
            out.inner = inner
        for arg in keywords:
            out.entries.append((arg.keyword.value, self.child(arg.value, inner_managed, depth)))  # type: ignore[union-attr]
        return out

    def _builtin_frozen(self, func: cst.BaseExpression) -> str | None:
        """A bare ``frozendict`` no import binds: the builtin (PEP 814), if it is being recognised."""
        if isinstance(func, cst.Name) and func.value == "frozendict" and "builtins.frozendict" in self.frozen:
            scope = self.ctx.scope(func)
            if scope is not None and not scope[func.value]:
                return "builtins.frozendict"
        return None

    def _frozen(self, call: cst.Call, freezes: Freezes, depth: int) -> Container | None:
        """``frozendict({...})`` and kin: already frozen at the top, maybe not inside."""
        managed = freezes.managed
        if len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star:
            inner = call.args[0].value
            if isinstance(inner, cst.Dict):
                container = self._dict_display(inner, call, "frozen", "frozen", managed, depth)
                container.inner = inner
                return container
            nested = self.read(inner, managed, depth + 1)  # FrozenConfigDict(dict(a=1))
            if nested is not None and nested.kind in ("dict", "frozen"):
                return Container(call, "frozen", "frozen", nested.entries, inner)
        if call.args and all(a.keyword is not None and not a.star for a in call.args):
            out = Container(call, "frozen", "frozen")
            out.entries = [(a.keyword.value, self.child(a.value, managed, depth)) for a in call.args]  # type: ignore[union-attr]
            return out
        return None
