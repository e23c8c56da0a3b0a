"""fix_source / check_source behaviour that golden files cannot show on their own."""

from __future__ import annotations

import textwrap

from jaxfix.transforms import Options, check_source, fix_source
from jaxfix.transforms.core.findings import Applicability, Edit, Fix
from jaxfix.transforms.core.suppression import suppressions
from jaxfix.transforms.core.textedit import LineIndex, apply_edits, select_compatible

BRANCHES = """\
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["N"])
def run_true(N, x):
    return jnp.ones((N,)) * x


@partial(jax.jit, static_argnames=["N"])
def run_false(N, x):
    return jnp.zeros((N,)) * x
"""


def codes(src: str, **options) -> list[str]:
    return [f"{f.code}:{f.line}" for f in check_source(textwrap.dedent(src), Options(**options))]


def test_a_cond_that_is_not_jax_is_not_ours() -> None:
    src = BRANCHES.replace("import jax\n", "import jax\nfrom mylib import lax\n") + "lax.cond(True, run_true, run_false, 3, 1.0)\n"
    assert codes(src) == []


def test_conditional_import_is_ambiguous() -> None:
    src = (
        "try:\n    from jax import lax\nexcept ImportError:\n    from mylib import lax\n"
        + BRANCHES
        + "lax.cond(True, run_true, run_false, 3, 1.0)\n"
    )
    assert codes(src) == []


def test_every_import_spelling_of_cond() -> None:
    for head, call in [
        ("import jax", "jax.lax.cond"),
        ("from jax import lax", "lax.cond"),
        ("import jax.lax as lax", "lax.cond"),
        ("from jax.lax import cond", "cond"),
        ("from jax.lax import cond as choose", "choose"),
        ("import jax as j", "j.lax.cond"),
    ]:
        src = head + "\n" + BRANCHES + f"{call}(True, run_true, run_false, 3, 1.0)\n"
        assert [c.split(":")[0] for c in codes(src)] == ["JAX101"], head


def test_suppression_comments() -> None:
    call = "jax.lax.cond(True, run_true, run_false, 3, 1.0)"
    assert codes(BRANCHES + call + "  # jaxfix: ignore[JAX101]\n") == []
    assert codes(BRANCHES + call + "  # jaxfix: ignore\n") == []
    assert codes(BRANCHES + "# jaxfix: ignore[JAX101]\n" + call + "\n") == []
    # Another rule's code silences nothing here, and says so (JAX001).
    assert codes(BRANCHES + call + "  # jaxfix: ignore[JAX201]\n") == ["JAX101:14", "JAX001:14"]
    assert codes(BRANCHES + f'x = ({call}, "# jaxfix: ignore")\n') == ["JAX101:14"]
    assert suppressions('x = "# jaxfix: ignore"\n') == {}


def test_select_and_ignore() -> None:
    src = BRANCHES + "jax.lax.cond(True, run_true, run_false, 3, 1.0)\n"
    assert codes(src, select=frozenset({"JAX2"})) == []
    assert codes(src, ignore=frozenset({"JAX101"})) == []
    assert codes(src, select=frozenset({"JAX1"})) == ["JAX101:14"]


def test_fix_result_unpacks_as_text_and_findings() -> None:
    text, findings = fix_source(BRANCHES + "jax.lax.cond(True, run_true, run_false, 3, 1.0)\n")
    assert "partial(run_true, 3)" in text and findings == ()


def test_two_calls_on_one_line_are_both_fixed() -> None:
    src = BRANCHES + "a = (jax.lax.cond(True, run_true, run_false, 3, 1.0), jax.lax.cond(False, run_true, run_false, 2, 1.0))\n"
    result = fix_source(src)
    assert "partial(run_true, 3)" in result.text and "partial(run_false, 2)" in result.text
    assert len(result.applied) == 2


def test_no_jax_call_means_no_parse_and_no_change() -> None:
    src = "def f(:\n"  # not even valid: never parsed, since no rule can match
    assert fix_source(src).text == src


def test_edits_apply_and_conflicts_wait_for_the_next_pass() -> None:
    text = "abcdef"
    a = Fix(Applicability.SAFE, (Edit(0, 2, "X"),))
    b = Fix(Applicability.SAFE, (Edit(1, 3, "Y"),))
    c = Fix(Applicability.SAFE, (Edit(4, 4, "Z"), Edit(0, 2, "X")))
    assert select_compatible([a, b, c]) == [a, c]
    assert apply_edits(text, [Edit(0, 2, "X"), Edit(4, 4, "Z"), Edit(0, 2, "X")]) == "XcdZef"


def test_line_index_counts_characters_and_all_line_ends() -> None:
    index = LineIndex("é\r\nb\rc\nd")
    assert [index.line_start(n) for n in (1, 2, 3, 4)] == [0, 3, 5, 7]
    assert index.offset(2, 0) == 3 and index.position(6).line == 3
