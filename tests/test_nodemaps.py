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

from transforms.nodemaps import expression_contexts, offsets, parents
from transforms.textedit import LineIndex

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for folder in ("transforms", "codemods", "tests", "golden") for p in (ROOT / folder).rglob("*.py"))

ODD = '''\
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
'''


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
