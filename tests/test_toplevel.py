"""A module's outline gives the summary its whole text gives, or says it cannot.

The summary (`repo_index.summarize`) of an importer's view of a module is
read from the outline instead of the whole text: the two must agree on every
text Python parses. Checked on the project's own sources and examples, on
hand-written texts that put the tokenizing regex's hard cases at column 0,
and on generated programs (arbitrary Python from hypothesmith, and modules
assembled from those hard cases).
"""

from __future__ import annotations

import ast
from pathlib import Path

import hypothesmith
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jaxfix.transforms.core.stdlib_ast import parse
from jaxfix.transforms.project.outline import outline
from jaxfix.transforms.project.repo_index import summarize

pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")  # generated programs call literals

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    p
    for folder in ("transforms", "codemods", "tests", "golden", "examples", "benchmarks", "docs")
    for p in (ROOT / folder).rglob("*.py")
)


def _agrees(text: str) -> None:
    """The outline keeps the lines where they are and the summary as it is (or is None)."""
    reduced = outline(text)
    if reduced is None:
        return
    assert reduced.count("\n") == text.count("\n")
    whole = parse(text)
    if whole is None:
        return
    tree = parse(reduced)
    assert tree is not None, reduced
    assert summarize(tree) == summarize(whole)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_outline_of_each_source_summarizes_as_its_text(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    _agrees(text)
    assert outline(text) is not None


JITTED = """\
import jax
from functools import partial
from .model import step as exported

@partial(jax.jit, static_argnums=(0,))
def a(n, x):
    return x * n

b = jax.jit(lambda x: x)
def _c(n, x): return x
c = jax.jit(_c, static_argnames=("n",))
"""

#: Each puts something at column 0 that is not a statement, or a statement that is easy to misread.
HARD = [
    'DOC = """\ndef a(n):\n    pass\nimport os as jax\n"""\n',
    "x = '''\n@jax.jit\ndef b(): ...\n'''  # and then '''\n",
    "y = f(\ndef_x,\n)\n",
    "z = [v\nfor v in range(3)\nif v]\n",
    "w = 1 + \\\n2\n",
    "s = 'it''s'; t = \"#not a comment\"  # 'a comment'\n",
    "u = '\\'' + \"\\\"\"\n",
    "v = '''a''' '''b'''\n",
    "e = ''\n",
    "r = r'\\'' + rb'\\\\'\n",
    "if True:\n    import numpy as jax\n    def a(n): ...\nelse:\n    pass\n",
    "try:\n    from .model import step\nexcept ImportError:\n    step = None\nfinally:\n    pass\n",
    "for i in range(2):\n    a = i\n",
    "while False:\n    break\n",
    "with open(__file__) as f:\n    b = f\n",
    "match = 1\nmatch(2)\n",
    "match x:\n    case 1:\n        a = 2\n",
    "async def d(n):\n    return n\n",
    "class K(Base, metaclass=M):\n    def a(self): ...\n",
    "class L: pass\n",
    "def e(\n    n,  # a comment: with (brackets\n    x,\n) -> dict[str, int]:  # trailing\n    return {}\n",
    "def f(x=lambda: 0): return x\n",
    "@partial(\njax.jit,\nstatic_argnums=0,\n)\ndef g(n): ...\n",
    "@partial(jax.jit, static_argnames=\"\"\"\ndef h\n\"\"\")\ndef h(n): ...\n",
    "\n\n# a comment at column 0 (with an unclosed bracket\n    # and an indented one\nq = 3\n",
    "h = {\n'k': '''\n)\n''',\n}\n",
    "def i(): '''doc'''\n",
    "x: int = 3\ny: 'Annotated' \n",
    "a = jax.jit(_c); a = 2\n",
    "del jax\n",
    "global g\n",
    "i = (1 if x else\n2)\n",
]


@pytest.mark.parametrize("hard", HARD)
@pytest.mark.parametrize("where", ["before", "after"])
def test_hard_cases_beside_jitted_definitions(hard: str, where: str) -> None:
    text = hard + JITTED if where == "before" else JITTED + hard
    assert outline(text) is not None
    _agrees(text)
    _agrees(text.replace("\n", "\r\n"))


def test_the_summary_of_the_outline_is_read_at_the_same_lines() -> None:
    text = HARD[0] + JITTED
    whole = summarize(ast.parse(text))
    assert {name: s.line for name, s in whole.jitted.items()} == {"a": 11, "c": 15}
    assert summarize(ast.parse(outline(text))) == whole


@pytest.mark.parametrize(
    "text",
    [
        "x = 'never closed\n",
        "x = '''never closed\n",
        "x = ''' never closed either'\n",
        "x = (1,\n",
        "x = 1)\n",
        "\x0cdef a(): ...\n",  # a form feed resets the column
        "a = 1\rb = 2\r",  # lone carriage returns end lines for Python, not for the regex
        "\ufeffa = 1\n",
        "a = '\x00'\n",
    ],
)
def test_what_the_regex_does_not_model_gets_no_outline(text: str) -> None:
    assert outline(text) is None


def test_a_module_that_does_not_parse_has_its_top_level_read() -> None:
    """A syntax error in a body: the whole text gives nothing, the outline its top level."""
    text = JITTED + "def broken():\n    return 1 +\n"
    assert parse(text) is None
    assert set(summarize(ast.parse(outline(text))).jitted) == {"a", "c"}


@given(hypothesmith.from_grammar())
def test_arbitrary_programs(text: str) -> None:
    _agrees(text)


@given(st.lists(st.sampled_from([*HARD, JITTED]), min_size=1, max_size=8))
def test_hard_cases_in_any_order(parts: list[str]) -> None:
    _agrees("".join(parts))
