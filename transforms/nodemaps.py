"""Where each node's text is, and each node's parent: the two maps rules use most.

libcst's PositionProvider and ParentNodeProvider compute the same facts
through its general metadata machinery, at about three times the cost.
Here positions are character offsets into the module's own text (what edits
need; lines and columns follow from the offsets), recorded by one code
generation pass with libcst's own rules for syntactic positions (so a
statement starts after its leading blank lines, as PositionProvider says),
and parents come from one walk over ``children``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import libcst as cst
from libcst._nodes.internal import CodegenState


@dataclass
class _OffsetState(CodegenState):
    """Code generation that keeps only a running length and each node's (start, end)."""

    offset: int = 0
    spans: dict = field(default_factory=dict)
    _starts: list = field(default_factory=list)

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.offset += len(token)

    def add_token(self, value: str) -> None:
        self.offset += len(value)

    def before_codegen(self, node: cst.CSTNode) -> None:
        self._starts.append(self.offset)

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self._starts.pop()
        if node not in self.spans:  # a syntactic position, recorded inside, wins
            self.spans[node] = (start, self.offset)

    def pop_trailing_newline(self) -> None:
        pass  # only the module's own end moves, and nothing asks for it

    @contextmanager
    def record_syntactic_position(
        self,
        node: cst.CSTNode,
        *,
        start_node: cst.CSTNode | None = None,
        end_node: cst.CSTNode | None = None,
    ) -> Iterator[None]:
        start = self.offset
        try:
            yield
        finally:
            end = self.offset
            if start_node is not None:
                start = self.spans[start_node][0]
            if end_node is not None:
                end = self.spans[end_node][1]
            self.spans[node] = (start, end)


def offsets(module: cst.Module) -> dict[cst.CSTNode, tuple[int, int]]:
    """Every node's syntactic (start, end) character offsets in module.code."""
    state = _OffsetState(default_indent=module.default_indent, default_newline=module.default_newline)
    module._codegen(state)
    return state.spans


def parents(module: cst.Module) -> dict[cst.CSTNode, cst.CSTNode]:
    out: dict[cst.CSTNode, cst.CSTNode] = {}
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        for child in node.children:
            out[child] = node
            stack.append(child)
    return out
