"""The text edits that freeze a literal config where it is written.

Each container is frozen by inserting text around it or swapping its
brackets, never by regenerating it, so comments and layout inside stay byte
for byte:

* ``{...}`` becomes ``frozendict({...})`` (the chosen constructor);
  ``dict(a=1)`` becomes ``frozendict(a=1)``, or ``FrozenConfigDict(dict(a=1))``
  for a constructor without dict's signature;
* ``[a, b]`` becomes ``(a, b)`` (``[a]`` becomes ``(a,)``); ``list(...)``
  becomes ``tuple(...)``;
* ``{a, b}`` becomes ``frozenset({a, b})``; ``set(...)`` becomes ``frozenset(...)``;
* tuples, frozensets and mappings already frozen stay, their insides are frozen.

Whatever the library's constructor freezes itself (dicts nested in dicts for
flax and ml_collections; lists and sets too for ml_collections) is left as
written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from jaxfix.transforms.core.findings import Edit
from jaxfix.transforms.rules.jax201_unhashable_static_arg.mapping_library import MappingLibrary
from jaxfix.transforms.semantics.literals import DICTS, EVERYTHING, NOTHING, UNKNOWN_KEY, Container, Leaf
from jaxfix.transforms.semantics.module import ModuleContext


@dataclass
class _Edits:
    """Insertions (merged per offset, outermost first) and bracket replacements."""

    inserts: dict[int, list[tuple[int, str]]] = field(default_factory=dict)
    replacements: list[Edit] = field(default_factory=list)

    def insert(self, offset: int, text: str, order: int) -> None:
        self.inserts.setdefault(offset, []).append((order, text))

    def wrap(self, start: int, end: int, head: str, depth: int) -> None:
        self.insert(start, head + "(", depth)
        self.insert(end, ")", -depth)

    def replace(self, start: int, end: int, text: str) -> None:
        self.replacements.append(Edit(start, end, text))

    def result(self) -> list[Edit]:
        merged = [Edit(o, o, "".join(t for _, t in sorted(parts))) for o, parts in self.inserts.items()]
        return sorted(merged + self.replacements)


@dataclass(frozen=True)
class Frozen:
    """The edits that freeze one literal, and what they change."""

    edits: tuple[Edit, ...]
    #: What changed, for the message: "dict → frozendict(...)", "list → tuple".
    conversions: tuple[str, ...]


class Freezer:
    """Freezes literal configs into one library's frozen mapping, tuples and frozensets."""

    def __init__(
        self,
        ctx: ModuleContext,
        library: MappingLibrary,
        constructor: str,
        tuple_name: str | None,
        frozenset_name: str | None,
    ) -> None:
        self.ctx = ctx
        self.library = library
        self.constructor = constructor
        self.tuple_name = tuple_name
        self.frozenset_name = frozenset_name

    def refusal(self, tree: Container) -> str | None:
        """Why this library cannot hold this config, or None."""
        if self.library.config_dict_rules:
            reason = self._config_dict_refusal(tree, inside_mapping=False, inside_sequence=False)
            if reason:
                return reason
        for node in tree.containers():
            if node.form == "call" and node.kind in ("list", "set") and self._name_for(node.kind) is None:
                return f"`{_builtin_for(node.kind)}` is shadowed here"
            if node.form == "display" and node.kind == "set" and self.frozenset_name is None:
                return "`frozenset` is shadowed here"
        return None

    def freeze(self, tree: Container) -> Frozen:
        edits = _Edits()
        conversions: list[str] = []
        self._visit(tree, NOTHING, edits, conversions, 1)
        return Frozen(tuple(edits.result()), tuple(dict.fromkeys(conversions)))

    # -- the walk -------------------------------------------------------------
    def _visit(self, node: Container | Leaf, managed: str, edits: _Edits, conversions: list[str], depth: int) -> None:
        if isinstance(node, Leaf):
            return
        inside = managed
        if node.kind == "dict":
            if managed == NOTHING:
                self._freeze_mapping(node, edits, depth)
                conversions.append(f"dict → `{self.constructor}(...)`")
            inside = (
                EVERYTHING
                if managed == EVERYTHING or self.library.freezes_nested_sequences
                else (DICTS if self.library.freezes_nested_dicts else NOTHING)
            )
        elif node.kind in ("list", "set"):
            if managed != EVERYTHING:
                self._freeze_sequence(node, edits, depth)
                conversions.append("list → tuple" if node.kind == "list" else "set → frozenset")
            inside = EVERYTHING if managed == EVERYTHING else NOTHING
        else:  # tuple, frozenset, a mapping already frozen: kept; what is inside is frozen
            inside = EVERYTHING if managed == EVERYTHING else NOTHING
        for _, child in node.entries:
            self._visit(child, inside, edits, conversions, depth + 1)

    def _freeze_mapping(self, node: Container, edits: _Edits, depth: int) -> None:
        ctx = self.ctx
        expr = node.node
        if isinstance(expr, cst.Dict):
            # Unlike brackets, brace tokens hold no whitespace outside them.
            edits.wrap(ctx.start(expr.lbrace), ctx.end(expr.rbrace), self.constructor, depth)
        elif self.library.keyword_constructor:
            assert isinstance(expr, cst.Call)
            edits.replace(_own_start(ctx, expr.func), _own_end(ctx, expr.func), self.constructor)
        else:
            assert isinstance(expr, cst.Call)
            edits.wrap(_own_start(ctx, expr), _own_end(ctx, expr), self.constructor, depth)

    def _freeze_sequence(self, node: Container, edits: _Edits, depth: int) -> None:
        ctx = self.ctx
        expr = node.node
        if isinstance(expr, cst.Call):
            edits.replace(_own_start(ctx, expr.func), _own_end(ctx, expr.func), self._name_for(node.kind))  # type: ignore[arg-type]
        elif isinstance(expr, cst.List):
            # The bracket tokens' spans hold the whitespace next to them: swap one character.
            opening = ctx.start(expr.lbracket)
            closing = ctx.end(expr.rbracket) - 1
            edits.replace(opening, opening + 1, "(")
            edits.replace(closing, closing + 1, ")")
            if len(expr.elements) == 1 and not isinstance(expr.elements[0].comma, cst.Comma):
                edits.insert(_own_end(ctx, expr.elements[0]), ",", 0)  # (a,) is a tuple, (a) is not
        else:
            assert isinstance(expr, cst.Set)
            edits.wrap(ctx.start(expr.lbrace), ctx.end(expr.rbrace), self.frozenset_name, depth)  # type: ignore[arg-type]

    def _name_for(self, kind: str) -> str | None:
        return self.tuple_name if kind == "list" else self.frozenset_name

    def _config_dict_refusal(
        self, node: Container | Leaf, *, inside_mapping: bool, inside_sequence: bool
    ) -> str | None:
        if isinstance(node, Leaf):
            return None
        if node.kind in ("dict", "frozen"):
            if inside_mapping and inside_sequence:
                return "FrozenConfigDict cannot hold a dict inside a list or tuple"
            if any(key is UNKNOWN_KEY or not isinstance(key, str) for key, _ in node.entries):
                return "FrozenConfigDict takes string keys only, and some keys here are not strings (or cannot be read)"
            inside_mapping, inside_sequence = True, False
        else:
            inside_sequence = inside_sequence or inside_mapping
        for _, child in node.entries:
            reason = self._config_dict_refusal(child, inside_mapping=inside_mapping, inside_sequence=inside_sequence)
            if reason:
                return reason
        return None


def _builtin_for(kind: str) -> str:
    return "tuple" if kind == "list" else "frozenset"


def _own_start(ctx: ModuleContext, node: cst.CSTNode) -> int:
    """Where the node's own text starts, parentheses around it excluded (an offset in the
    analysed text: `local_span`, not `span`, whose lines are the file's when it was sliced)."""
    position = ctx.local_span(node).start
    return ctx.lines.offset(position.line, position.column)


def _own_end(ctx: ModuleContext, node: cst.CSTNode) -> int:
    position = ctx.local_span(node).end
    return ctx.lines.offset(position.line, position.column)
