"""What freezing changes in a value, part by part.

Freezing turns each dict into a frozen mapping, each list into a tuple and
each set into a frozenset; every other value (a number, a function) stays the
very same object. Code that reads the value can only notice the change where
it touches a part that changed: ``config["lr"]`` is the same float either way,
``config["layers"] == [64, 64]`` is True for a list and False for a tuple.

A Shape records, for a value and each part of it, whether freezing changes
it, so that `container_uses` checks only the uses that can tell.
"""

from __future__ import annotations

from dataclasses import dataclass

from jaxfix.transforms.semantics.literals import UNKNOWN_KEY, Container, Leaf


@dataclass(frozen=True)
class Shape:
    """A value, or a part of one, as freezing leaves it: changed or not, and its parts."""

    #: leaf | mapping | sequence | view (keys(), values(), items()) | pair | union | opaque | maybe
    #: | instance (a frozen dataclass: its entries are fields by name, and methods as METHOD)
    #: | namespace (`NAMESPACE`)
    kind: str
    changed: bool
    entries: tuple[tuple[object, Shape], ...] = ()
    #: For a mapping: every key is known, so a missing key is the caller's default.
    complete: bool = True
    #: A new container the reader built from the parts (``dict(config)``): changing
    #: it is fine, only its parts are shared with the frozen value.
    fresh: bool = False
    #: Iterating it gives another order than the source wrote (FrozenConfigDict sorts its keys).
    reordered: bool = False

    def child(self, key: object = UNKNOWN_KEY) -> Shape:
        """The part that ``value[key]`` (or ``value.get(key)``) gives."""
        if self.kind in ("opaque", "maybe"):
            return self.entries[0][1] if self.entries else self
        if self.kind in ("leaf", "view"):
            return LEAF
        if self.kind in ("union", "instance"):
            return union([s.child(key) for _, s in self.entries])
        if key is not UNKNOWN_KEY and self.complete:
            for k, shape in self.entries:
                if k == key and type(k) is type(key):
                    return shape
            if self.kind == "mapping":
                return LEAF  # a missing key: KeyError, or the caller's own default
            if isinstance(key, int) and -len(self.entries) <= key < len(self.entries):
                return self.entries[key][1]
        return union([s for _, s in self.entries])

    def element(self) -> Shape:
        """What iterating over the value gives."""
        if self.kind == "mapping":
            return LEAF  # keys are hashable, hence never changed
        if self.kind in ("sequence", "view", "pair"):
            return union([s for _, s in self.entries])
        if self.kind == "union":
            return union([s.element() for _, s in self.entries])
        if self.kind == "instance":
            return union([s for _, s in self.entries])
        if self.kind == "maybe":
            return MAYBE
        return LEAF

    def elements_changed(self) -> bool:
        return self.element().changed


LEAF = Shape("leaf", False)


def union(shapes: list[Shape]) -> Shape:
    """A part that may be any of `shapes`; LEAF when none of them changes."""
    changed = [s for s in shapes if s.changed]
    if not changed:
        return LEAF
    distinct = list(dict.fromkeys(changed))
    if len(distinct) == 1:
        return distinct[0]
    return Shape("union", True, tuple((UNKNOWN_KEY, s) for s in distinct))


def shape_of(node: Container | Leaf, sorts_keys: bool = False) -> Shape:
    """The shape of a literal config (leaves never change).

    `sorts_keys`: the frozen mapping iterates its keys sorted (FrozenConfigDict).
    """
    if isinstance(node, Leaf):
        return LEAF
    entries = tuple((key, shape_of(child, sorts_keys)) for key, child in node.entries)
    complete = all(key is not UNKNOWN_KEY for key, _ in entries)
    changed = node.needs_freezing
    if node.kind in ("dict", "frozen"):
        keys = [key for key, _ in entries]
        reordered = sorts_keys and node.kind == "dict" and (not complete or keys != sorted(keys, key=str))
        return Shape("mapping", changed, entries, complete, reordered=reordered)
    return Shape("sequence", changed, entries, complete)


#: A part of a value built at run time that a deep freeze may have changed (a nested
#: list now a tuple): only the uses that would silently differ are checked on it.
MAYBE = Shape("maybe", True)


def opaque(*, deep: bool, sorts_keys: bool = False) -> Shape:
    """A value built at run time, frozen at the call: the top changes, its parts only if `deep`.

    Iterating it is read as iterating a mapping's keys.
    """
    return Shape("opaque", True, ((UNKNOWN_KEY, MAYBE if deep else LEAF),), reordered=sorts_keys)


#: An attribute bag (``argparse.Namespace``) handed over as a namedtuple with the same fields:
#: reading a field gives the very same object; anything else may tell the two apart.
NAMESPACE = Shape("namespace", True)

#: A method of an instance whose field changes: what it reads of ``self`` is not followed.
METHOD = Shape("method", True)


def instance(field: str, part: Shape, methods: frozenset[str]) -> Shape:
    """An instance of a frozen dataclass whose `field` has the shape `part`; every other field
    is the same object it was."""
    return Shape("instance", True, ((field, part), *((m, METHOD) for m in sorted(methods) if m != field)))


def view(entries: Shape, reordered: bool = False) -> Shape:
    """``keys()``/``values()``: a view whose elements have that shape."""
    return Shape("view", True, ((UNKNOWN_KEY, entries),), reordered=reordered)


def items_view(values: Shape, reordered: bool = False) -> Shape:
    pair = Shape("pair", values.changed, ((0, LEAF), (1, values)))
    return Shape("view", True, ((UNKNOWN_KEY, pair),), reordered=reordered)


def new_sequence(elements: Shape) -> Shape:
    """A list or tuple the reader builds from the parts (``list(config)``): changed only inside."""
    return Shape("sequence", elements.changed, ((UNKNOWN_KEY, elements),), False, fresh=True)


def copied_mapping(shape: Shape) -> Shape:
    """``dict(config)``: a new dict again at the top, the parts shared."""
    if shape.kind == "mapping":
        changed = any(s.changed for _, s in shape.entries)
        return Shape("mapping", changed, shape.entries, shape.complete, fresh=True)
    if shape.kind in ("opaque", "union", "maybe"):
        part = shape.child()
        return Shape("mapping", part.changed, ((UNKNOWN_KEY, part),), False, fresh=True)
    return new_sequence(shape.element())
