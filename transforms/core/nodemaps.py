"""Where each node's text is, and each node's parent: the two maps rules use most.

libcst's PositionProvider and ParentNodeProvider compute the same facts
through its general metadata machinery, at about three times the cost.
Here positions are character offsets into the module's own text (what edits
need; lines and columns follow from the offsets), recorded by one code
generation pass with libcst's own rules for syntactic positions (so a
statement starts after its leading blank lines, as PositionProvider says);
the same pass records each node's parent.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import MappingProxyType

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata import ExpressionContextProvider, MetadataWrapper, ScopeProvider


@dataclass
class _OffsetState(CodegenState):
    """Code generation that keeps only a running length, each node's (start, end) and parent."""

    offset: int = 0
    #: The length of the last token written (a trailing newline the module may take back).
    last: int = 0
    spans: dict = field(default_factory=dict)
    parents: dict = field(default_factory=dict)
    _starts: list = field(default_factory=list)
    _open: list = field(default_factory=list)

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.offset += len(token)

    def add_token(self, value: str) -> None:
        self.offset += len(value)
        self.last = len(value)
        if not self.tokens:
            self.tokens.append(value)  # Module asks whether any token was written

    def before_codegen(self, node: cst.CSTNode) -> None:
        if self._open:
            self.parents[node] = self._open[-1]
        self._open.append(node)
        self._starts.append(self.offset)

    def after_codegen(self, node: cst.CSTNode) -> None:
        self._open.pop()
        start = self._starts.pop()
        if node not in self.spans:  # a syntactic position, recorded inside, wins
            self.spans[node] = (start, self.offset)

    def pop_trailing_newline(self) -> None:
        # Only the module's own end moves: no node's span includes the newline taken back.
        self.offset -= self.last

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


def offsets_and_parents(module: cst.Module) -> tuple[dict, dict, int]:
    """Every node's syntactic (start, end) offsets in module.code, every node's parent, and
    the length of module.code, from one code generation pass."""
    state = _OffsetState(default_indent=module.default_indent, default_newline=module.default_newline)
    module._codegen(state)
    return state.spans, state.parents, state.offset


def offsets(module: cst.Module) -> dict[cst.CSTNode, tuple[int, int]]:
    return offsets_and_parents(module)[0]


def parents(module: cst.Module) -> dict[cst.CSTNode, cst.CSTNode]:
    return offsets_and_parents(module)[1]


def code_length(module: cst.Module) -> int:
    return offsets_and_parents(module)[2]


def children_of(parents: dict[cst.CSTNode, cst.CSTNode]) -> dict[cst.CSTNode, list[cst.CSTNode]]:
    """Each node's children, from the parents map (libcst's ``node.children`` rebuilds the
    node through its visitor machinery on every call: several times slower)."""
    out: dict[cst.CSTNode, list[cst.CSTNode]] = {}
    for child, parent in parents.items():
        siblings = out.get(parent)
        if siblings is None:
            out[parent] = [child]
        else:
            siblings.append(child)
    return out


def expression_contexts(
    module: cst.Module, children: dict[cst.CSTNode, list[cst.CSTNode]] | None = None
) -> dict[cst.CSTNode, object]:
    """libcst's ExpressionContextProvider, for Name nodes only (all ScopeProvider reads).

    Same rules as libcst.metadata.expression_context_provider: a Name is STORE
    as an assignment, for, with/except/import alias, walrus, def, class or
    parameter target (and inside a tuple, list or starred target), DEL under
    ``del``, LOAD elsewhere; an attribute's own name, a keyword argument's
    name and the names libcst's visitor never reaches get none.
    """
    from libcst.metadata.expression_context_provider import ExpressionContext

    load, store, delete = ExpressionContext.LOAD, ExpressionContext.STORE, ExpressionContext.DEL
    out: dict[cst.CSTNode, object] = {}
    stack: list[tuple[cst.CSTNode, object]] = [(module, load)]
    push = stack.append
    while stack:
        node, context = stack.pop()
        kind = type(node)
        if kind is cst.Name:
            out[node] = context
        elif kind is cst.Attribute:
            push((node.value, load))
        elif kind is cst.Subscript:
            push((node.value, load))
            for element in node.slice:
                push((element, load))
        elif kind is cst.Assign:
            for target in node.targets:
                push((target, store))
            push((node.value, context))
        elif kind is cst.AnnAssign:
            push((node.target, store))
            push((node.annotation, context))
            if node.value is not None:
                push((node.value, context))
        elif kind is cst.AugAssign or kind is cst.NamedExpr:
            push((node.target, store))
            push((node.value, context))
        elif kind is cst.AsName:
            push((node.name, store))
        elif kind is cst.CompFor:
            push((node.target, store))
            push((node.iter, context))
            for condition in node.ifs:
                push((condition, context))
            if node.inner_for_in is not None:
                push((node.inner_for_in, context))
        elif kind is cst.For:
            push((node.target, store))
            push((node.iter, context))
            push((node.body, context))
            if node.orelse is not None:
                push((node.orelse, context))
        elif kind is cst.Del:
            push((node.target, delete))
        elif kind is cst.ClassDef:
            push((node.name, store))
            push((node.body, context))
            for child in (*node.bases, *node.keywords, *node.decorators):
                push((child, context))
        elif kind is cst.FunctionDef:
            push((node.name, store))
            push((node.params, context))
            push((node.body, context))
            for decorator in node.decorators:
                push((decorator, context))
            if node.returns is not None:
                push((node.returns, context))
        elif kind is cst.Param:
            push((node.name, store))
            if node.annotation is not None:
                push((node.annotation, context))
            if node.default is not None:
                push((node.default, context))
        else:
            for child in node.children if children is None else children.get(node, ()):
                push((child, context))
    return out


def scopes(
    wrapper: MetadataWrapper,
    contexts: dict[cst.CSTNode, object],
    children: dict[cst.CSTNode, list[cst.CSTNode]] | None = None,
) -> Mapping[cst.CSTNode, object]:
    """libcst's ScopeProvider on the wrapper's module, `contexts` standing in for its
    ExpressionContextProvider (`expression_contexts`).

    ``wrapper.resolve(ScopeProvider)`` runs the provider as a batched visitor: a
    traversal of the whole module whose only work is ``visit_Module``, which runs
    libcst's own ScopeVisitor over the module in a second traversal. Calling
    ``visit_Module`` directly gives the same mapping (tested against libcst's) and
    skips the first, a third of the cost. A libcst whose wrapper no longer keeps
    its metadata in a dict gets the public call.

    Given each node's `children` (`children_of`), the ScopeVisitor's traversal
    itself skips libcst's generic machinery too (`_visiting`).
    """
    metadata = getattr(wrapper, "_metadata", None)
    if not isinstance(metadata, dict):
        return wrapper.resolve(ScopeProvider)
    metadata[ExpressionContextProvider] = contexts
    provider = ScopeProvider()
    with provider.resolve(wrapper):
        if _ScopeVisitor is None:
            provider.visit_Module(wrapper.module)
        else:
            visitor = _ScopeVisitor(provider)  # what visit_Module does, with our visitor
            if children is None:
                wrapper.module.visit(visitor)
            else:
                _visiting(wrapper.module, visitor, children)
            visitor.infer_accesses()
    metadata[ScopeProvider] = MappingProxyType(dict(provider._computed))
    return metadata[ScopeProvider]


#: Nodes whose children libcst visits in another order than it writes them out (whitespace
#: among them); their own ``children`` keeps the order exact.
_VISITED_OUT_OF_ORDER = frozenset({cst.AsName, cst.Del, cst.ParamSlash})


def _visiting(module: cst.Module, visitor: cst.CSTVisitor, children: dict[cst.CSTNode, list[cst.CSTNode]]) -> None:
    """``module.visit(visitor)`` for a visitor that never changes the tree, in libcst's order.

    libcst's ``CSTNode.visit`` rebuilds every node from its visited children and
    calls attribute hooks around each field: for the ScopeVisitor (no attribute
    hook can fire: its only two are on ClassDef, whose children it visits itself)
    that machinery was three quarters of the cost. While it runs, ``visit`` on
    any node of the module (the ScopeVisitor calls it on the parts it visits
    itself) takes the children from the map instead. Other visitors, and nodes
    outside the module (the ScopeVisitor parses a string annotation and visits
    what it parsed), get libcst's own. The visit order is tested equal to libcst's.
    """
    original = cst.CSTNode.visit
    ours = children.keys() | {child for kids in children.values() for child in kids}

    def visit(node: cst.CSTNode, by: cst.CSTVisitor) -> cst.CSTNode:
        if by is not visitor or node not in ours:
            return original(node, by)
        if visitor.on_visit(node):
            for child in node.children if type(node) in _VISITED_OUT_OF_ORDER else children.get(node, ()):
                visit(child, by)
        visitor.on_leave(node)
        return node

    cst.CSTNode.visit = visit  # type: ignore[method-assign]
    try:
        visit(module, visitor)
    finally:
        cst.CSTNode.visit = original  # type: ignore[method-assign]


def _scope_visitor() -> type | None:
    """libcst's ScopeVisitor, its ``on_leave`` testing a node's exact type.

    Its own ``isinstance(node, <18 node classes>)`` runs ABCMeta's Python-level
    ``__instancecheck__`` once per class for most of the module's nodes: a third
    of the provider's time. None of those classes has a subclass, so the exact
    type says the same. None if libcst's internals are not the ones read here.
    """
    from libcst.metadata import scope_provider

    visitor = getattr(scope_provider, "ScopeVisitor", None)
    counted = getattr(scope_provider, "_ASSIGNMENT_LIKE_NODES", None)
    if visitor is None or not isinstance(counted, tuple) or any(kind.__subclasses__() for kind in counted):
        return None
    counted_types = frozenset(counted)

    class ExactTypeScopeVisitor(visitor):
        def on_leave(self, original_node: cst.CSTNode) -> None:
            self.provider.set_metadata(original_node, self.scope)
            if type(original_node) in counted_types:
                self.scope._assignment_count += 1
            cst.CSTVisitor.on_leave(self, original_node)

    return ExactTypeScopeVisitor


_ScopeVisitor = _scope_visitor()
