"""JAX202: a static pytree field given an array becomes an ordinary field (docs/jax306-behaviour.md,
P5); safe only when nothing sees the instance whole, a report when the array is needed concrete.

Programs run with the real flax and equinox (test extras); before must fail at the second call,
after must print what an ordinary field prints.
"""

from __future__ import annotations

import pytest

from jaxfix.transforms import Options, check, fix_source
from jaxfix.transforms.core.findings import Applicability

from .helpers import run_in_process

pytest.importorskip("flax")
pytest.importorskip("equinox")

HEADS = {
    "flax": ("import jax\nimport jax.numpy as jnp\nfrom flax import struct\n\n\n@struct.dataclass\nclass Foo:\n",
             "struct.field(pytree_node=False)"),
    "equinox": ("import equinox as eqx\nimport jax\nimport jax.numpy as jnp\n\n\nclass Foo(eqx.Module):\n",
                "eqx.field(static=True)"),
    "register": ("import dataclasses\n\nimport jax\nimport jax.numpy as jnp\n\n\n@jax.tree_util.register_dataclass\n"
                 "@dataclasses.dataclass\nclass Foo:\n", "dataclasses.field(metadata=dict(static=True))"),
}

STEP = """

def step(p):
    return p.scale * p.bar


jit_step = jax.jit(step)
RESULT = [jit_step(Foo(jnp.float32(i + 1), jnp.arange(4))).tolist() for i in range(2)]
"""


def program(style: str, declaration: str | None = None, body: str = STEP) -> str:
    head, static = HEADS[style]
    return head + f"    scale: jax.Array\n    bar: jax.Array = {declaration or static}\n" + body


def findings(src: str, unsafe: bool = False):
    """JAX202's findings, the same on the fast path and the whole analysis."""
    options = Options(unsafe_fixes=unsafe)
    both = [[(f.code, f.line, bool(f.fix)) for f in check(src, options, narrow=n).findings if f.code == "JAX202"] for n in (True, False)]
    assert both[0] == both[1], "the fast path and the whole analysis disagree"
    return [f for f in check(src, options, narrow=False).findings if f.code == "JAX202"]


@pytest.mark.parametrize("style", sorted(HEADS))
def test_the_static_declaration_goes_and_the_second_call_works(style: str) -> None:
    src = program(style)
    with pytest.raises(ValueError, match="checking equality of metadata fields"):
        run_in_process(src)
    (finding,) = findings(src)
    assert finding.fix is not None and finding.fix.applicability is Applicability.SAFE, finding.message
    fixed = fix_source(src, Options()).text
    assert "    bar: jax.Array\n" in fixed
    assert run_in_process(fixed)["RESULT"].tolist() == [[0.0, 1.0, 2.0, 3.0], [0.0, 2.0, 4.0, 6.0]]
    assert fix_source(fixed, Options()).text == fixed


def test_other_arguments_of_the_field_call_stay() -> None:
    src = program("flax", "struct.field(pytree_node=False, repr=False)")
    fixed = fix_source(src, Options()).text
    assert "    bar: jax.Array = struct.field(repr=False)\n" in fixed


def test_an_instance_given_to_a_tree_operation_makes_the_fix_unsafe() -> None:
    body = STEP + "LEAVES = len(jax.tree_util.tree_leaves(Foo(jnp.float32(1), jnp.arange(4))))\n"
    src = program("flax", body=body)
    (finding,) = findings(src)
    assert finding.fix.applicability is Applicability.UNSAFE
    assert "uses the instance whole" in finding.notes[0]
    assert fix_source(src, Options()).text == src
    fixed = fix_source(src, Options(unsafe_fixes=True)).text
    assert run_in_process(fixed)["LEAVES"].tolist() == 2  # the note's point: one more leaf


def test_a_read_that_needs_the_array_concrete_is_reported() -> None:
    body = STEP.replace("return p.scale * p.bar", "return p.scale * int(p.bar.sum())")
    (finding,) = findings(program("flax", body=body))
    assert finding.fix is None and "not rewritten" in finding.message
    assert "a hashable form" in finding.notes[1]


@pytest.mark.parametrize(
    "src",
    [
        program("flax", body=STEP.replace("jnp.arange(4)", "(0, 1, 2, 3)").replace("p.scale * p.bar", "p.scale * jnp.asarray(p.bar)")),
        program("flax", "struct.field(pytree_node=True)"),
        program("equinox", "eqx.field()"),
    ],
    ids=["tuple-in-static-field", "flax-data-field", "equinox-data-field"],
)
def test_look_alikes_get_no_finding(src: str) -> None:
    assert findings(src) == []
    assert run_in_process(src)["RESULT"].tolist()[1] == [0.0, 2.0, 4.0, 6.0]


def test_a_listed_meta_field_given_an_array_moves_into_data_fields() -> None:
    src = (
        "import dataclasses\n\nimport jax\nimport jax.numpy as jnp\n\n\n@dataclasses.dataclass\nclass Foo:\n"
        "    scale: jax.Array\n    bar: jax.Array\n\n\n"
        'jax.tree_util.register_dataclass(Foo, data_fields=("scale",), meta_fields=("bar",))\n' + STEP
    )
    (finding,) = findings(src)
    assert finding.fix.applicability is Applicability.SAFE
    fixed = fix_source(src, Options()).text
    assert 'register_dataclass(Foo, data_fields=("scale", "bar"), meta_fields=())' in fixed
    assert run_in_process(fixed)["RESULT"].tolist() == [[0.0, 1.0, 2.0, 3.0], [0.0, 2.0, 4.0, 6.0]]


WATCHED = """\
import jax
import jax.numpy as jnp
import equinox as eqx
import pytest


def test_no_jax_array_static():
    class InvalidArr(eqx.Module):
        a: tuple
        b: jax.Array = eqx.field(static=True)

    with {expecting}:
        InvalidArr((), jnp.ones(10))
"""


@pytest.mark.parametrize(
    ("expecting", "found"),
    [
        ('pytest.warns(UserWarning, match="A JAX array is being set as static!")', []),
        ("pytest.raises(ValueError)", []),
        ("open('log.txt')", ["JAX202"]),  # any other block: the construction is the program's own
    ],
)
def test_an_instance_built_to_watch_a_warning_or_error_is_a_test_not_a_pitfall(expecting: str, found: list[str]) -> None:
    """equinox's own test builds a module with an array in a static field under `pytest.warns`:
    the warning is what it checks, and a rewrite would make it fail."""
    assert [f.code for f in check(WATCHED.format(expecting=expecting), Options()).findings] == found
