"""One parsed module and everything rules share about it.

Parsed once, metadata resolved once, handed to every rule: rules never re-parse
and never touch files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cached_property, partial

import libcst as cst
from libcst.metadata import MetadataWrapper

from jaxfix.transforms.core.findings import Applicability, Edit, Finding, Fix, Position, Span
from jaxfix.transforms.core.nodemaps import children_of, expression_contexts, offsets_and_parents, scopes
from jaxfix.transforms.core.options import Options, SourceError
from jaxfix.transforms.core.textedit import LineIndex, newline_of
from jaxfix.transforms.semantics.vocabulary import NameResolver

FunctionNode = cst.FunctionDef | cst.Lambda


#: Why a module whose text libcst's tree does not reproduce is left alone.
NOT_REPRODUCED = (
    "libcst's tree of this file does not give back its exact text (it drops a line holding only "
    "`\\` or a form feed before a statement, and lone `\\r` line endings), so positions in it "
    "would be wrong: left alone"
)


def _nothing() -> None:
    return None


class ModuleContext:
    """A parsed module; `original_line` maps its lines to the file's (see slicing.py)."""

    def __init__(
        self,
        text: str,
        module: cst.Module,
        options: Options,
        original_line: Callable[[int], int] | None = None,
        repo: object | None = None,
        ref: object | None = None,
    ) -> None:
        self.text = text
        #: The project's other modules (a `repository.Repository`), and this module's `ModuleRef`.
        self.repo = repo
        self.ref = ref
        self._original_line = original_line or (lambda line: line)
        self.module = module
        self.options = options
        self.wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        self._offsets, self._parents, length = offsets_and_parents(module)
        if length != len(text):
            # Every offset would point elsewhere in `text`: an edit would land on the wrong code.
            raise SourceError(NOT_REPRODUCED)
        # ScopeProvider reads ExpressionContextProvider for Name nodes only; ours
        # computes exactly those values (tested against libcst's) in a third of the time.
        children = children_of(self._parents)
        self._children = children
        self._scopes = scopes(self.wrapper, expression_contexts(module, children), children)
        # A function of the parents map alone: a bound method of the context would make a cycle
        # (context -> resolver -> context) that holds the whole tree until a full collection, which
        # the engine's per-file young-generation collection never runs (flax's 2,000 files: 0.55 GB
        # became 1.05 GB, and slower)
        self.names = NameResolver(self._scopes, partial(_assigned_value, self._parents))
        self.lines = LineIndex(text)
        self.newline = newline_of(text)
        #: The module's `tracing.TraceIndex`, from its `analysis.Analysis` (held weakly: a strong
        #: reference would be a cycle holding the tree, as `names` explains); None without one.
        #: Lower layers reach it through `passed_arguments`.
        self.trace_index: Callable[[], object | None] = _nothing

    def passed_arguments(self, param: cst.Param) -> tuple[cst.BaseExpression, ...] | None:
        """What every use of `param`'s function hands it (`tracing.TraceIndex.passed_arguments`),
        for the layers below the trace index (name resolution: `callables.passed_target`); None
        before an analysis made the index, or when a use cannot be read."""
        traces = self.trace_index()
        return traces.passed_arguments(param) if traces is not None else None  # type: ignore[attr-defined]

    # -- positions and text -------------------------------------------------
    def span(self, node: cst.CSTNode) -> Span:
        """Where the node is in the file (original line numbers, for findings and messages)."""
        start, end = self._offsets[node]
        a, b = self.lines.position(start), self.lines.position(end)
        line = self._original_line
        return Span(Position(line(a.line), a.column), Position(line(b.line), b.column))

    def local_span(self, node: cst.CSTNode) -> Span:
        """Where the node is in this (possibly sliced) text, for edits."""
        start, end = self._offsets[node]
        return Span(self.lines.position(start), self.lines.position(end))

    def start(self, node: cst.CSTNode) -> int:
        """Offset where the node's text starts, its own parentheses included."""
        lpar = getattr(node, "lpar", None)  # a With's or an ImportFrom's is one paren or a sentinel
        return self._offsets[lpar[0] if isinstance(lpar, (list, tuple)) and lpar else node][0]

    def end(self, node: cst.CSTNode) -> int:
        """Offset where the node's text ends, its own parentheses included."""
        rpar = getattr(node, "rpar", None)
        return self._offsets[rpar[-1] if isinstance(rpar, (list, tuple)) and rpar else node][1]

    def code(self, node: cst.CSTNode) -> str:
        """The node's source text as written (comments and spacing inside kept)."""
        return self.text[self.start(node) : self.end(node)]

    def replace(self, node: cst.CSTNode, content: str) -> Edit:
        return Edit(self.start(node), self.end(node), content)

    def indent_of(self, node: cst.CSTNode) -> str:
        """The text before `node` on its line (its indentation, for a statement), in the analysed
        text (the file's lines differ in a slice)."""
        span = self.local_span(node)
        return self.lines.line_text(span.start.line)[: span.start.column]

    def line_after(self, offset: int) -> int:
        """Offset where the line after the one holding `offset` starts: where a new statement goes."""
        return self.lines.line_start(self.lines.position(offset).line + 1)

    # -- tree navigation ----------------------------------------------------
    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self._parents.get(node)

    def ancestors(self, node: cst.CSTNode) -> Iterator[cst.CSTNode]:
        parent = self._parents.get(node)
        while parent is not None:
            yield parent
            parent = self._parents.get(parent)

    def ancestors_within(self, node: cst.CSTNode, stop: cst.CSTNode | None) -> list[cst.CSTNode]:
        """The nodes around `node`, innermost first, up to `stop` (not included): a function's
        own blocks around a statement (`stop` its def), or every ancestor (`stop` None)."""
        out: list[cst.CSTNode] = []
        for ancestor in self.ancestors(node):
            if ancestor is stop:
                break
            out.append(ancestor)
        return out

    def enclosing_function(self, node: cst.CSTNode) -> FunctionNode | None:
        return self._owners.get(node)

    def written_in(self, fn: FunctionNode) -> list[cst.CSTNode]:
        """The nodes `fn` encloses with no function between (its decorators, parameters and body;
        a nested def or lambda itself, not what is inside it)."""
        return self._owned.get(fn, [])

    @cached_property
    def _owners(self) -> dict[cst.CSTNode, FunctionNode]:
        """Each node's nearest enclosing function, in one walk down the tree: asked for by every
        rule, and an ancestor walk each time was a visible share of a module's analysis."""
        owners: dict[cst.CSTNode, FunctionNode] = {}
        todo: list[tuple[cst.CSTNode, FunctionNode | None]] = [(self.module, None)]
        while todo:
            node, owner = todo.pop()
            # FunctionDef and Lambda have no subclasses: exact types skip ABCMeta's isinstance
            inner = node if type(node) in (cst.FunctionDef, cst.Lambda) else owner
            for child in self._children.get(node, ()):
                if inner is not None:
                    owners[child] = inner  # type: ignore[assignment]
                todo.append((child, inner))
        return owners

    @cached_property
    def _owned(self) -> dict[FunctionNode, list[cst.CSTNode]]:
        out: dict[FunctionNode, list[cst.CSTNode]] = {}
        for node, owner in self._owners.items():
            out.setdefault(owner, []).append(node)
        return out

    def descendants(self, node: cst.CSTNode, kind: type = cst.CSTNode) -> list:
        """The nodes of type `kind` written inside `node` (itself included), in no particular order,
        from the module's children map (libcst's ``node.children`` rebuilds the node each time)."""
        out: list[cst.CSTNode] = []
        stack = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, kind):
                out.append(current)
            stack.extend(self._children.get(current, ()))
        return out

    def statement_of(self, node: cst.CSTNode) -> cst.CSTNode:
        """The statement (simple line or compound) that contains node."""
        for candidate in (node, *self.ancestors(node)):
            if isinstance(candidate, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
                return candidate
        return node

    def enclosing_class(self, node: cst.CSTNode) -> cst.ClassDef | None:
        return next((a for a in self.ancestors(node) if isinstance(a, cst.ClassDef)), None)

    def scope(self, node: cst.CSTNode):
        return self._scopes.get(node)

    def scopes(self) -> set:
        """Every scope of the module."""
        return {s for s in self._scopes.values() if s is not None}

    @cached_property
    def calls(self) -> tuple[cst.Call, ...]:
        """Every call in the module, in source order (from metadata: no extra walk)."""
        return tuple(sorted(self.nodes_of(cst.Call), key=self.start))

    def nodes_of(self, kind: type) -> list:
        """Every node of a type, in no particular order (from metadata: no extra walk)."""
        return [n for exact, nodes in self._nodes_by_type.items() if issubclass(exact, kind) for n in nodes]

    def calls_of(self, qualified: str) -> list[cst.Call]:
        """Every call of the function `qualified` names (``jax.tree_util.register_dataclass``), in
        source order (an index built once, the first time one is asked for)."""
        return self._calls_by_callee.get(qualified, [])

    @cached_property
    def _calls_by_callee(self) -> dict[str, list[cst.Call]]:
        out: dict[str, list[cst.Call]] = {}
        for call in self.calls:
            qualified = self.names.qualified_name(call.func)
            if qualified is not None:
                out.setdefault(qualified, []).append(call)
        return out

    def attributes_named(self, attr: str) -> list[cst.Attribute]:
        """Every ``x.attr`` in the module (an index built once: a method's references are looked
        up per method, and a scan of every attribute each time was quadratic in a big test class)."""
        return self._attributes_by_name.get(attr, [])

    @cached_property
    def _attributes_by_name(self) -> dict[str, list[cst.Attribute]]:
        out: dict[str, list[cst.Attribute]] = {}
        for node in self.nodes_of(cst.Attribute):
            out.setdefault(node.attr.value, []).append(node)
        return out

    @cached_property
    def _nodes_by_type(self) -> dict[type, list[cst.CSTNode]]:
        # libcst's node classes are ABCs: isinstance on each node runs ABCMeta's check in Python.
        out: dict[type, list[cst.CSTNode]] = {}
        for node in self._parents:
            out.setdefault(type(node), []).append(node)
        return out

    # -- findings -----------------------------------------------------------
    def finding(
        self,
        code: str,
        node: cst.CSTNode,
        message: str,
        edits: tuple[Edit, ...] | None = None,
        applicability: Applicability = Applicability.SAFE,
        description: str = "",
        notes: tuple[str, ...] = (),
    ) -> Finding:
        fix = Fix(applicability, tuple(sorted(set(edits))), description) if edits else None
        return Finding(code, message, self.span(node), fix, notes)


def _assigned_value(parents: dict, target: cst.CSTNode) -> cst.BaseExpression | None:
    """The value of ``target = value`` (one target), for the name resolver."""
    assign_target = parents.get(target)
    assign = parents.get(assign_target) if isinstance(assign_target, cst.AssignTarget) else None
    return assign.value if isinstance(assign, cst.Assign) and len(assign.targets) == 1 else None
