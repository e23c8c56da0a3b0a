"""JAX306 on flax.struct and equinox classes: the same pitfall as a registered dataclass, declared
static in each library's own spelling (docs/jax306-behaviour.md, P4); and what stays a report.

Each rewritten program is run with the real library (flax and equinox are test extras).
"""

from __future__ import annotations

import pytest

from jaxfix.transforms import Options, check, fix_source
from jaxfix.transforms.core.findings import Applicability

from .helpers import run_in_process

pytest.importorskip("flax")
pytest.importorskip("equinox")

FLAX_HEAD = """\
import jax
import jax.numpy as jnp
from flax import struct

"""

EQX_HEAD = """\
import equinox as eqx
import jax
import jax.numpy as jnp

"""

RUN = """

@jax.jit
def run(x, config):
    for _ in range(config.steps):
        x = x * config.scale
    return x


RESULT = run(jnp.ones(2), {build})
"""


def findings(src: str):
    """JAX306's findings, the same on the fast path and the whole analysis."""
    both = [[(f.code, f.line, bool(f.fix)) for f in check(src, Options(), narrow=n).findings if f.code == "JAX306"] for n in (True, False)]
    assert both[0] == both[1], "the fast path and the whole analysis disagree"
    return [f for f in check(src, Options(), narrow=False).findings if f.code == "JAX306"]


def fixed_and_run(src: str, declaration: str) -> str:
    (finding,) = findings(src)
    assert finding.fix is not None and finding.fix.applicability is Applicability.SAFE, finding.message
    fixed = fix_source(src, Options()).text
    assert declaration in fixed, fixed
    assert run_in_process(fixed)["RESULT"].tolist() == [8.0, 8.0]
    assert fix_source(fixed, Options()).text == fixed
    return fixed


@pytest.mark.parametrize(
    ("head", "cls", "declaration"),
    [
        (FLAX_HEAD, "@struct.dataclass\nclass Config:", "steps: int = struct.field(default=3, pytree_node=False)"),
        (FLAX_HEAD, "class Config(struct.PyTreeNode):", "steps: int = struct.field(default=3, pytree_node=False)"),
        (EQX_HEAD, "class Config(eqx.Module):", "steps: int = eqx.field(default=3, static=True)"),
    ],
    ids=["flax-dataclass", "flax-pytreenode", "equinox-module"],
)
def test_each_library_declares_the_field_static_its_own_way(head: str, cls: str, declaration: str) -> None:
    src = head + f"\n{cls}\n    scale: jax.Array\n    steps: int = 3\n" + RUN.format(build="Config(jnp.asarray(2.0))")
    fixed_and_run(src, declaration)


def test_a_field_call_of_the_library_gets_the_keyword_added() -> None:
    src = FLAX_HEAD + "\n@struct.dataclass\nclass Config:\n    scale: jax.Array\n    steps: int = struct.field(default=3)\n"
    fixed_and_run(src + RUN.format(build="Config(jnp.asarray(2.0))"), "steps: int = struct.field(default=3, pytree_node=False)")


def test_a_dataclasses_field_in_a_flax_class_gets_the_metadata_flax_reads() -> None:
    src = FLAX_HEAD.replace("import jax\n", "import dataclasses\n\nimport jax\n")
    src += "\n@struct.dataclass\nclass Config:\n    scale: jax.Array\n    steps: int = dataclasses.field(default=3)\n"
    fixed_and_run(src + RUN.format(build="Config(jnp.asarray(2.0))"),
                  "steps: int = dataclasses.field(default=3, metadata=dict(pytree_node=False))")


def test_the_other_librarys_marker_is_not_static() -> None:
    """``metadata=dict(static=True)`` is register_dataclass's and equinox's key; flax reads
    ``pytree_node``: such a field is a leaf of a flax class, and the finding says so."""
    src = FLAX_HEAD.replace("import jax\n", "import dataclasses\n\nimport jax\n")
    src += "\n@struct.dataclass\nclass Config:\n    scale: jax.Array\n    steps: int = dataclasses.field(default=3, metadata=dict(static=True))\n"
    (finding,) = findings(src + RUN.format(build="Config(jnp.asarray(2.0))"))
    assert finding.fix is None and "already has a `metadata`" in finding.message


EQX_INIT = EQX_HEAD + """

class Config(eqx.Module):
    scale: jax.Array
    steps: int

    def __init__(self, scale, steps):
        self.scale = jnp.asarray(scale)
        self.steps = steps
"""


def test_an_equinox_init_that_sets_the_field_from_its_parameter_is_followed_to_every_construction() -> None:
    src = EQX_INIT + RUN.format(build="Config(2.0, 3)")
    fixed_and_run(src, "    steps: int = eqx.field(static=True)\n")


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (("Config(2.0, 3)", "Config(2.0, jnp.asarray(3))"), "line 13 sets it to `steps`"),
        (("        self.steps = steps\n", "        if scale > 1:\n            self.steps = steps\n        else:\n            self.steps = 1\n"),
         "sets its fields in its own `__init__`"),
        (("        self.steps = steps\n", "        self.steps = steps\n\n    def __post_init__(self):\n        pass\n"),
         "sets its fields in its own `__post_init__`"),
    ],
    ids=["traced-argument", "set-in-a-branch", "post-init"],
)
def test_an_equinox_init_jaxfix_cannot_prove_is_reported(change: tuple[str, str], why: str) -> None:
    src = (EQX_INIT + RUN.format(build="Config(2.0, 3)")).replace(*change)
    (finding,) = findings(src)
    assert finding.fix is None and why in finding.message, finding.message
    assert "eqx.field(..., static=True)" in finding.notes[0]


def test_tree_at_on_the_field_is_reported() -> None:
    """``eqx.tree_at`` replaces leaves; a static field is none (P4)."""
    src = EQX_HEAD + "\nclass Config(eqx.Module):\n    scale: jax.Array\n    steps: int = 3\n"
    src += RUN.replace("config):", "config: Config):").format(build="eqx.tree_at(lambda c: c.steps, Config(jnp.asarray(2.0)), 3)")
    (finding,) = findings(src)
    assert finding.fix is None and "may replace it as a leaf" in finding.message


def test_an_equinox_converter_is_reported() -> None:
    src = EQX_HEAD + "\nclass Config(eqx.Module):\n    scale: jax.Array\n    steps: int = eqx.field(default=3, converter=int)\n"
    (finding,) = findings(src + RUN.format(build="Config(jnp.asarray(2.0))"))
    assert finding.fix is None and "`converter`" in finding.message


@pytest.mark.parametrize(
    "src",
    [
        # filter_jit keeps non-array fields static: nothing is traced.
        EQX_HEAD + "\nclass Config(eqx.Module):\n    scale: jax.Array\n    steps: int = 3\n"
        + RUN.replace("@jax.jit", "@eqx.filter_jit").format(build="Config(jnp.asarray(2.0))"),
        # Already static, in each spelling.
        EQX_HEAD + "\nclass Config(eqx.Module):\n    scale: jax.Array\n    steps: int = eqx.field(static=True, default=3)\n"
        + RUN.format(build="Config(jnp.asarray(2.0))"),
        EQX_HEAD + "\nclass Config(eqx.Module):\n    scale: jax.Array\n    steps: int = eqx.static_field(default=3)\n"
        + RUN.format(build="Config(jnp.asarray(2.0))"),
        FLAX_HEAD + "\n@struct.dataclass\nclass Config:\n    scale: jax.Array\n    steps: int = struct.field(False, default=3)\n"
        + RUN.format(build="Config(jnp.asarray(2.0))"),
        # A subclass of a module of this file: inherited fields are not read.
        EQX_HEAD + "\nclass Base(eqx.Module):\n    scale: jax.Array\n\n\nclass Config(Base):\n    steps: int = 3\n"
        + RUN.format(build="Config(jnp.asarray(2.0))"),
    ],
    ids=["filter-jit", "eqx-field-static", "eqx-static-field", "flax-positional-false", "subclass"],
)
def test_look_alikes_get_no_finding(src: str) -> None:
    assert findings(src) == []
    if "class Base" not in src:
        assert run_in_process(src)["RESULT"].tolist() == [8.0, 8.0]
