"""The screen stays generous but no more than the rules need: what it leaves out, libcst
would not have found, and what it must keep, it keeps.

Each case pairs a distractor the screen now drops (so libcst never runs for it) with the
same program holding a real finding, which the fast path must still report exactly as
whole-module analysis does.
"""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import pytest

from jaxfix.transforms import RULES, Options, check
from jaxfix.transforms.core import stdlib_ast
from jaxfix.transforms.gate import screen
from jaxfix.transforms.project.repo_index import TextSummary, summarize

ROOT = Path(__file__).resolve().parent.parent


def seeds(rule: str, text: str) -> list[ast.AST]:
    text = textwrap.dedent(text)
    return RULES[rule].seeds(screen.Facts(stdlib_ast.parse(text), text))


def same_as_whole(text: str) -> list[str]:
    text = textwrap.dedent(text)
    narrow, whole = check(text, Options()), check(text, Options(), narrow=False)
    assert [(f.code, f.span, f.message, f.fix) for f in narrow.findings] == [
        (f.code, f.span, f.message, f.fix) for f in whole.findings
    ]
    return [f.code for f in narrow.findings]


# -- a jitted name is resolved by scope: a test file jits an `f` in every test ------------

OTHER_SCOPES = """\
import jax
import jax.numpy as jnp
from functools import partial


def test_jitted():
    @partial(jax.jit, static_argnums=0)
    def f(w, x):
        return x * 2
    return f

def test_plain():
    def f(w, x):
        return x * 2
    return f(jnp.ones(3), 1.0), jax.jit(f)(jnp.ones(3), 1.0)
"""


def test_a_plain_f_in_another_test_is_not_the_jitted_one() -> None:
    assert seeds("JAX403", OTHER_SCOPES) == []
    assert seeds("JAX401", OTHER_SCOPES) == []
    assert same_as_whole(OTHER_SCOPES) == []


def test_the_jitted_f_in_scope_is_still_found() -> None:
    program = OTHER_SCOPES + textwrap.dedent(
        """
        def test_array_to_static():
            @partial(jax.jit, static_argnums=0)
            def f(w, x):
                return x * 2
            return f(jnp.ones(3), 1.0), jax.make_jaxpr(f)(2, 1.0)
        """
    )
    assert [type(s).__name__ for s in seeds("JAX403", program)] == ["Call", "FunctionDef"]
    assert len(seeds("JAX401", program)) == 1
    assert "JAX403" in same_as_whole(program)


def test_an_array_is_what_array_origin_calls_one() -> None:
    """``P('x')`` (a PartitionSpec) or ``np.dtype(...)`` in a static slot is no array."""
    program = """\
    import jax
    import numpy as np
    import jax.numpy as jnp
    from jax.sharding import PartitionSpec as P
    from functools import partial

    @partial(jax.jit, static_argnums=1)
    def f(x, spec):
        return x

    def main(x):
        return f(x, P("x")), f(x, np.dtype("float32")), f(x, jnp.dtype("float32"))
    """
    assert seeds("JAX403", program) == []
    assert "JAX403" not in same_as_whole(program)
    arrays = program.replace('P("x")', "np.zeros(3)")
    assert seeds("JAX403", arrays)
    assert "JAX403" in same_as_whole(arrays)


# -- JAX201: a name bound more than once is followed only to a container written out -----

REBOUND = """\
import jax
from functools import partial

@partial(jax.jit, static_argnames="axis")
def total(x, axis):
    return x.sum(axis)

def canonical(axis, ndim):
    return axis % ndim

def main(x, axis):
    axis = canonical(axis, x.ndim)
    return total(x, axis=axis)
"""


def test_a_rebound_parameter_given_a_call_is_not_a_config() -> None:
    assert seeds("JAX201", REBOUND) == []
    assert same_as_whole(REBOUND) == []


@pytest.mark.parametrize("binding", ["axis = [0, 1]", "axis = dict(rows=0)"])
def test_a_rebound_name_with_a_written_container_is_kept(binding: str) -> None:
    program = REBOUND.replace(
        "    axis = canonical(axis, x.ndim)\n",
        f"    axis = canonical(axis, x.ndim)\n    if x.ndim > 1:\n        {binding}\n",
    )
    assert seeds("JAX201", program)
    assert same_as_whole(program) == ["JAX201"]


def test_a_name_a_comprehension_also_binds_is_followed_generously() -> None:
    """libcst gives the comprehension its own scope: the function may bind the name once."""
    program = REBOUND.replace(
        "    axis = canonical(axis, x.ndim)\n",
        "    sizes = [axis for axis in range(3)]\n    axis = canonical(axis, x.ndim)\n",
    )
    assert seeds("JAX201", program)  # not sure how libcst counts: let it decide
    assert same_as_whole(program) == []


# -- another module's summary, answered from its text when the text settles it ----------


NEAR_MISSES = """\
import jax
from functools import partial

@partial(jax.jit, static_argnums=0)
def step2(n, x): ...

@partial(jax.jit, static_argnums=0)
async def astep(n, x): ...

def _f(n, x): ...
step_two = jax.jit(_f, static_argnums=0)
step: int = 3
step.attr = 1
def_x = jax.jit(_f)
stepper = jax.jit(_f, static_argnames="n")
    step3 = jax.jit(_f)
"""


def _modules() -> list[str]:
    golden = [p.read_text() for p in sorted((ROOT / "golden" / "multi").glob("*/before/**/*.py"))]
    return [*golden, NEAR_MISSES.replace("    step3", "step3 = 1\nif x:\n    step3")]


@pytest.mark.parametrize("index", range(len(_modules())))
def test_text_summary_answers_what_the_parsed_summary_answers(index: int) -> None:
    text = _modules()[index]
    full = summarize(ast.parse(text))
    lazy = TextSummary(text)
    for name in sorted(set(re.findall(r"[A-Za-z_]\w*", text)) | {"missing_name"}):
        assert lazy.jitted_function(name) == full.jitted.get(name), name
        assert lazy.reexport(name) == full.imports.get(name), name
    assert lazy.jitted == full.jitted


# -- whole words on lines: a find per word, or one regex pass, give the same lines ------


@pytest.mark.parametrize("path", sorted((ROOT / "golden").glob("JAX*/*/before.py"))[:40], ids=lambda p: p.parent.name)
def test_lines_of_words_is_the_same_either_way(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = path.read_text() + "\nrange_ = xrange(n)  # arange\n"
    facts = screen.Facts(stdlib_ast.parse(text), text)
    words = ["range", "arange", "jit", "x", "n", "cond", "static_argnums", "f"]
    found = facts.lines_of_words(words)
    monkeypatch.setattr(screen, "_FIND_WORDS_AT_MOST", 0)
    assert facts.lines_of_words(words) == found


# -- JAX301/JAX404: no route through functools.partial proves a parameter traced ---------

KERNEL = """\
import jax
import jax.numpy as jnp
from functools import partial


def kernel(x, block):
    return jnp.arange(block) + x


def run(x):
    return jax.vmap(partial(kernel, block=8))(x)
"""


def test_a_kernel_whose_size_partial_binds_is_not_seeded() -> None:
    """The pallas pattern: `tracing` cannot tell what a partial's bound arguments shift under a
    vmap; a jit making nothing static right around the partial traces what it leaves open
    (gwpopulation's ``jit(partial(f, likelihood))``), and the screen keeps that route."""
    assert seeds("JAX301", KERNEL) == []
    assert same_as_whole(KERNEL) == []
    traced_through_partial = KERNEL.replace("jax.vmap(partial(kernel, block=8))(x)", "jax.jit(partial(kernel, x))(8)")
    assert seeds("JAX301", traced_through_partial)
    assert same_as_whole(traced_through_partial) == ["JAX301"]


def test_a_kernel_handed_to_a_transform_directly_is_still_found() -> None:
    program = KERNEL.replace("jax.vmap(partial(kernel, block=8))(x)", "jax.jit(kernel)(x, 8)")
    assert seeds("JAX301", program)
    assert same_as_whole(program) == ["JAX301"]


def test_a_call_that_unpacks_arguments_is_not_a_jax201_seed() -> None:
    """`static_calls` binds no call with ``*`` or ``**``: which parameter gets what is hidden."""
    program = """\
    import jax
    from functools import partial

    @partial(jax.jit, static_argnums=1, static_argnames="method")
    def f(x, cfg=None, method="a"):
        return x

    def main(x, method):
        kwds = {} if method is None else {"method": method}
        return f(x, [1], **kwds), f(x, *[[1, 2]])
    """
    assert seeds("JAX201", program) == []
    assert same_as_whole(program) == []
    plain = program.replace(", **kwds), f(x, *[[1, 2]])", ")")
    assert seeds("JAX201", plain)
    assert same_as_whole(plain) == ["JAX201"]


# -- a parameter static on its jit is traced only when fed a tracer or a jax array -------

STATIC_HELPER = """\
import operator
import jax
import jax.numpy as jnp
from functools import partial


@partial(jax.jit, static_argnums=1)
def pad(x, n):
    return jnp.concatenate([x, jnp.zeros(n)])


def outer(x, n):
    return pad(x, operator.index(n))
"""


def test_a_static_parameter_fed_a_python_value_is_not_seeded() -> None:
    assert seeds("JAX404", STATIC_HELPER) == []
    assert same_as_whole(STATIC_HELPER) == []


def test_a_static_parameter_fed_a_tracer_is_still_found() -> None:
    program = STATIC_HELPER.replace("def outer(x, n):", "@jax.jit\ndef outer(x, n):")
    assert seeds("JAX404", program)
    assert same_as_whole(program) == ["JAX404"]


# -- edits computed on a slice land where they belong in the file -------------------------

SLICED_CONFIG = """\
import functools
from functools import partial

import jax
import jax.numpy as jnp

N = 4

@partial(jax.jit, static_argnums=(0,))
def f(n, x):
    return jnp.ones((n,)) * x

def g(n, x):
    return jnp.zeros((n,)) * x

y = jax.lax.cond(True, f, g, 3, x)
def step(n):
    return jnp.ones((n,)) * x

@partial(jax.jit, static_argnames=("cfg",))
def h(x, cfg):
    return x * cfg['k']

cfg = dict(k=2, n=3)
y = h(x, cfg)
"""


def test_a_constructor_frozen_in_a_sliced_module_is_the_one_replaced() -> None:
    """Found by the property test: the freezer read the file's line numbers against the
    slice's text, and rewrote ``h(x, cfg)`` into ``h(frozendictfg)``."""
    from jaxfix.transforms import fix_source

    assert "JAX201" in same_as_whole(SLICED_CONFIG)
    fixed = fix_source(SLICED_CONFIG, Options(select=frozenset({"JAX201"}))).text
    assert "cfg = frozendict(k=2, n=3)\ny = h(x, cfg)\n" in fixed
    assert fixed.replace("from frozendict import frozendict\n", "").replace("frozendict(k=", "dict(k=") == SLICED_CONFIG


SLICED_LOOP = """\
import jax
import jax.numpy as jnp

def g(n):
    return jnp.ones((n,))

@jax.jit
def f(n, x):
    for _ in range(n):
        x = x * 2
    return x

"""


def test_a_loop_rewritten_in_a_sliced_module_keeps_what_follows_it() -> None:
    """Found by the property test: the rewrite took its last line from the file's numbering
    on the slice's text (`g` is a one-line stub there) and swallowed ``return x``."""
    from jaxfix.transforms import fix_source

    assert same_as_whole(SLICED_LOOP) == ["JAX301"]
    fixed = fix_source(SLICED_LOOP, Options()).text
    assert "    x = jax.lax.fori_loop(0, n, lambda _, x: x * 2, x)\n    return x\n" in fixed


# -- JAX201: NumPy's metadata and dtype functions return no array (docs/jax4xx-behaviour.md C) --

METADATA = """\
import jax
import numpy as np
import jax.numpy as jnp
from functools import partial

@partial(jax.jit, static_argnums=1)
def f(x, spec):
    return x

def main(x, a):
    return f(x, np.dtype("float32")), f(x, np.shape(a)), f(x, jnp.finfo(jnp.float32)), f(x, np.ndim(a))
"""


def test_metadata_and_dtypes_in_a_static_slot_are_not_arrays() -> None:
    """They hash, and jit runs with them static: nothing to report (it was "is an array")."""
    assert seeds("JAX201", METADATA) == []
    assert same_as_whole(METADATA) == []
    arrays = METADATA.replace("np.shape(a)", "np.ones(3)")
    assert same_as_whole(arrays) == ["JAX403"]  # an array itself in a static slot is JAX403's (issue 17.5)


def test_a_config_holding_a_dtype_is_frozen() -> None:
    """A dtype is a hashable object and a shape plain data: the dict around them can be frozen."""
    from jaxfix.transforms import fix_source

    program = METADATA.replace("f(x, np.ndim(a))", 'f(x, dict(dtype=np.dtype("float32"), n=np.ndim(a)))')
    assert same_as_whole(program) == ["JAX201"]
    fixed = fix_source(program, Options()).text
    assert 'f(x, frozendict(dtype=np.dtype("float32"), n=np.ndim(a)))' in fixed


# -- JAX403: an annotation says "array" by its head, resolved as libcst resolves it ----------

ANNOTATED = """\
import jax
from functools import partial
from typing import Callable
from jax._src.typing import Array

@partial(jax.jit, static_argnames=["funcs", "w"])
def f(x, funcs: frozenset[tuple[int, Callable[..., Array]]], w: Array):
    return x
"""


def test_an_annotation_that_only_mentions_array_is_not_one() -> None:
    """``frozenset[... Array ...]`` is a frozenset, and jax's internal ``Array`` alias is not
    one of the names `array_origin` knows: libcst reports neither."""
    assert seeds("JAX403", ANNOTATED) == []
    assert same_as_whole(ANNOTATED) == []


@pytest.mark.parametrize("head", ["jax.Array", "jaxtyping.Float[jax.Array, 'n']", "np.ndarray"])
def test_an_annotation_headed_by_an_array_type_is_found(head: str) -> None:
    program = ANNOTATED.replace("w: Array", f"w: {head}").replace(
        "import jax\n", "import jax\nimport jaxtyping\nimport numpy as np\n"
    )
    assert seeds("JAX403", program)
    assert same_as_whole(program) == ["JAX403"]


# -- a name imported in two places may mean either: the screen follows both ------------------

TWO_IMPORTS = """\
import jax
from functools import partial

@partial(jax.jit, static_argnums=1)
def f(x, w):
    return x * w

def main(x):
    import jax.numpy as np
    return f(x, np.ones(3))

import pandas as np  # the name means something else at module level
"""


def test_a_name_imported_twice_is_followed_to_both_imports() -> None:
    """Inside `main`, ``np`` is jax.numpy, which the module-level import (the last one)
    would hide if the screen kept one binding per name."""
    assert seeds("JAX403", TWO_IMPORTS)
    assert "JAX403" in same_as_whole(TWO_IMPORTS)


# -- line numbers are Python's: a form feed or a \u2028 in a string ends no line --------------

@pytest.mark.parametrize("odd", ["\u2028", "\x85", "\x0c", "\x1c"])
def test_lines_are_numbered_as_python_numbers_them(odd: str) -> None:
    """``str.splitlines`` breaks at these too; the screen then looked for ``static_argnums``
    one line off from ast's statements, and the fast path lost the finding."""
    program = (ROOT / "golden" / "JAX101" / "seed000_eager" / "before.py").read_text()
    program = f'NOTE = "a{odd}b"\n' + program
    facts = screen.Facts(stdlib_ast.parse(program), program)
    assert all("static_arg" in facts.lines[line - 1] for line in facts.static_lines)
    assert same_as_whole(program) == ["JAX101"]


# -- the lines that hold a word: found in the text, the same as a scan of every line ----------

_WORDS = ["import", "lax", "jax", "numpy", "def", "static_arg", "cond", "scan", "=", "x"]


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("odd", ["", "\u2028", "\x0c"])
@pytest.mark.parametrize("last", ["", "\n"])
@pytest.mark.parametrize("path", sorted((ROOT / "golden").glob("JAX*/*/before.py"))[::12], ids=lambda p: p.parent.name)
def test_lines_found_in_the_text_are_the_lines_that_hold_the_word(path: Path, ending: str, odd: str, last: str) -> None:
    body = path.read_text().rstrip("\n") + f'\nNOTE = "a{odd}b"\nsequence = \\\n    [f, g]\nother =(\n    h,)\n'
    program = body.replace("\n", ending).rstrip(ending) + last.replace("\n", ending)
    facts = screen.Facts(stdlib_ast.parse(program), program)
    numbered = list(enumerate(facts.lines, 1))
    assert facts._line_starts == [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", program)]
    for word in _WORDS:
        assert facts.lines_containing(word) == {i for i, line in numbered if word in line}, word
    assert facts.static_lines == {i for i, line in numbered if "static_arg" in line}
    def_line = re.compile(r"^\s*(?:async\s+)?def\s")
    assert set(facts.defs_by_name) == {
        n.name for n in ast.walk(facts.tree) if isinstance(n, ast.FunctionDef) and def_line.match(facts.lines[n.lineno - 1])
    }
    assert "sequence" not in facts.sequences  # its "= [" spans a line break: the line's own test decides
    assert facts.sequences.get("other") == {"h"}


# -- JAX302: only the functions a jit traces whose parameters could be needed as values ---------

ARRAY_ONLY_LAYERS = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("n",))
def layer(x, n):
    y = x * 2.0
    for _ in range(n):
        y = jnp.tanh(y) + 0.5 * y
    return y.sum() + jnp.ones((n,)).sum()


@jax.jit
def step(params, batch):
    out = layer(batch, 3)
    return jnp.mean((out - params["w"]) ** 2)


print(step({"w": jnp.ones(3)}, jnp.ones(3)))
"""


def test_jax302_passes_by_jitted_functions_that_only_compute_with_their_parameters() -> None:
    assert seeds("JAX302", ARRAY_ONLY_LAYERS) == []
    assert same_as_whole(ARRAY_ONLY_LAYERS) == []


@pytest.mark.parametrize(
    "change, code",
    [
        ("    return jnp.mean((out - params[\"w\"]) ** 2)", "    return jnp.zeros(batch.shape[0] + params)"),  # not a need: metadata
        ("def step(params, batch):", "def step(params, batch, k):"),  # an unused parameter
    ],
)
def test_jax302_screen_keeps_out_what_the_analysis_finds_nothing_in(change: str, code: str) -> None:
    text = ARRAY_ONLY_LAYERS.replace(change, code)
    assert same_as_whole(text) == []


@pytest.mark.parametrize(
    "old, new",
    [
        ("    out = layer(batch, 3)", "    out = layer(batch, 3)\n    grid = jnp.linspace(0.0, 1.0, batch)"),  # a size
        ("    out = layer(batch, 3)", "    out = layer(batch, 3)\n    if batch > 0:\n        out = -out"),  # a Python if
        ("print(step({", "def act(v):\n    return v\n\n\nprint(step(act, jnp.ones(3)))\nprint(step({"),  # a function passed to jit
        ("print(step({", 'print(step("w", jnp.ones(3)))\nprint(step({'),  # a string passed to jit
    ],
)
def test_jax302_screen_keeps_each_kind_of_finding(old: str, new: str) -> None:
    text = ARRAY_ONLY_LAYERS.replace(old, new)
    assert seeds("JAX302", text), "the screen dropped a function JAX302 must look at"
    assert "JAX302" in same_as_whole(text)
