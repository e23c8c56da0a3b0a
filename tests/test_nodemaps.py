"""Our position, parent and expression-context maps equal libcst's providers on real code."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import (
    ExpressionContextProvider,
    MetadataWrapper,
    ParentNodeProvider,
    PositionProvider,
)

from jaxfix.transforms import Options, SourceError
from jaxfix.transforms.core.nodemaps import children_of, code_length, expression_contexts, offsets, parents
from jaxfix.transforms.core.textedit import LineIndex
from jaxfix.transforms.semantics.module import ModuleContext

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for folder in ("transforms", "codemods", "tests", "golden") for p in (ROOT / folder).rglob("*.py"))

ODD = """\
async def f[T](a, /, b: "list[T]" = [], *args, c, **kw) -> T:
    (x, [y, *z]) = a
    del kw["k"], x
    with open(b) as (p, q):
        pass
    try:
        pass
    except E as e:
        pass
    match a:
        case [m, *rest] if m:
            pass
    print(*[i for i in range(3) if i], k := 2, key=lambda v=1: v)
    return (lambda: (yield))

@d(x=1)
class C(B, metaclass=M):
    attr: int = 1
    import os.path as osp
"""


@pytest.mark.parametrize("path", SOURCES[:80] + [None], ids=lambda p: p.name if p else "odd-syntax")
def test_maps_equal_libcst_providers(path) -> None:
    text = ODD if path is None else path.read_text()
    module = cst.parse_module(text)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    index = LineIndex(text)
    mine = offsets(module)
    for node, r in positions.items():
        if node is module:
            continue
        expected = (index.offset(r.start.line, r.start.column), index.offset(r.end.line, r.end.column))
        assert mine[node] == expected, type(node).__name__
    assert parents(module) == dict(wrapper.resolve(ParentNodeProvider))
    contexts = {k: v for k, v in wrapper.resolve(ExpressionContextProvider).items() if isinstance(k, cst.Name)}
    assert expression_contexts(module) == contexts
    assert expression_contexts(module, children_of(parents(module))) == contexts


#: Texts libcst parses; it gives back the text of some of them exactly, and not of others.
ROUND_TRIPS = ["", "\n", "\n\n", "# c", "# c\n", "x=1", "x=1\n", "x=1\r\n", "x=1\ry=2",
               "x=1\n\x0c\ny=2\n", "def f():\n    x=1\n\x0c\n    y=2\n", "x = 1 + \\\n  2\n"]  # fmt: skip
NOT_REPRODUCED = ["\\\nx=1\n", "# c\n\\\nx=1\n", "  \\\nx=1\n", "\x0cx=1\n", "x=1\n\x0cy=2\n",
                  "\ufeffx=1\n", "x=1\ry=2\r"]  # fmt: skip


@pytest.mark.parametrize("text", ROUND_TRIPS + NOT_REPRODUCED)
def test_code_length_is_the_length_libcst_gives_back(text: str) -> None:
    module = cst.parse_module(text)
    assert code_length(module) == len(module.code)
    assert (module.code == text) == (text in ROUND_TRIPS)


@pytest.mark.parametrize("text", NOT_REPRODUCED)
def test_a_module_libcst_does_not_give_back_is_refused(text: str) -> None:
    """Offsets into libcst's text would point elsewhere in ours: a fix would edit the wrong code
    (``f(x, dict(a=1))`` became ``f(xfrozendictct(a=1))`` below a leading ``\\`` line)."""
    with pytest.raises(SourceError, match="does not give back its exact text"):
        ModuleContext(text, cst.parse_module(text), Options())


@pytest.mark.parametrize("text", ROUND_TRIPS)
def test_a_module_libcst_gives_back_is_analysed(text: str) -> None:
    assert ModuleContext(text, cst.parse_module(text), Options()).text == text


def _scope_shape(mapping, index) -> tuple[list, list]:
    """The scopes of a module as plain data: each node's scope, by number in the order the
    nodes come in the text; and each scope's kind, parent, and every assignment and access
    it records (name, where, and what each one refers to)."""

    def where(node) -> str:
        return repr(index.get(node, type(node).__name__)) if node is not None else "builtin"

    numbers: dict[int, int] = {}
    ordered = sorted(mapping.items(), key=lambda item: (where(item[0]), type(item[0]).__name__))
    for _, scope in ordered:
        while scope is not None and id(scope) not in numbers:
            numbers[id(scope)] = len(numbers)
            scope = scope.parent if scope.parent is not scope else None
    kinds = {}
    for _, scope in ordered:
        while scope is not None and numbers[id(scope)] not in kinds:
            kinds[numbers[id(scope)]] = (
                type(scope).__name__,
                numbers[id(scope.parent)] if scope.parent is not scope else None,
                sorted(
                    (
                        a.name,
                        where(getattr(a, "node", None)),
                        type(a).__name__,
                        sorted(where(r.node) for r in a.references),
                    )
                    for a in scope.assignments
                ),
                sorted(
                    (
                        where(a.node),
                        a.is_annotation,
                        a.is_type_hint,
                        sorted(where(getattr(r, "node", None)) for r in a.referents),
                    )
                    for a in scope.accesses
                ),
            )
            scope = scope.parent if scope.parent is not scope else None
    nodes = [
        (where(node), type(node).__name__, numbers[id(scope)] if scope is not None else None) for node, scope in ordered
    ]
    return nodes, [kinds[n] for n in range(len(kinds))]


@pytest.mark.parametrize("path", SOURCES[:40] + [None], ids=lambda p: p.name if p else "odd-syntax")
def test_scopes_equal_libcst_scope_provider(path) -> None:
    from libcst.metadata import ScopeProvider

    from jaxfix.transforms.core.nodemaps import scopes

    text = ODD if path is None else path.read_text()
    theirs = MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True)
    module = cst.parse_module(text)
    ours = MetadataWrapper(module, unsafe_skip_copy=True)
    index = offsets(module)
    their_index = offsets(theirs.module)
    children = children_of(parents(module))
    expected = _scope_shape(theirs.resolve(ScopeProvider), their_index)
    assert _scope_shape(scopes(ours, expression_contexts(module, children), children), index) == expected
    again = MetadataWrapper(module, unsafe_skip_copy=True)  # without the children: libcst's own traversal
    assert _scope_shape(scopes(again, expression_contexts(module, children)), index) == expected


@pytest.mark.parametrize("path", SOURCES[:40] + [None], ids=lambda p: p.name if p else "odd-syntax")
def test_children_come_in_libcst_visit_order(path) -> None:
    """`nodemaps._visiting` walks the children map where libcst would visit; the order is
    libcst's except for the node types it names, whose own ``children`` it then reads."""
    from jaxfix.transforms.core.nodemaps import _VISITED_OUT_OF_ORDER

    module = cst.parse_module(ODD if path is None else path.read_text())
    children = children_of(parents(module))
    for parent, kids in children.items():
        if type(parent) not in _VISITED_OUT_OF_ORDER:
            assert kids == list(parent.children), type(parent).__name__
