"""Class decorators that make a registered dataclass of every field (`pytree_classes.ALL_LEAVES`):
``tree_math.struct``, and a module's own decorator doing ``dataclasses.dataclass`` then
``register_dataclass(..., meta_fields=[])`` (jax-gcm's stand-in). Only that exact shape counts."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from jaxfix.transforms import Options, check
from jaxfix.transforms.semantics.module import ModuleContext
from jaxfix.transforms.semantics.pytree_classes import ALL_LEAVES, pytree_class

DECORATOR = """\
import dataclasses
import jax


class tree_util_helpers:
    @staticmethod
    def struct(cls):
        data_cls = dataclasses.dataclass(cls)
        fields = [f.name for f in dataclasses.fields(data_cls)]
        return jax.tree_util.register_dataclass(data_cls, data_fields=fields, meta_fields={meta})


def plain(cls):
    return jax.tree_util.register_dataclass(dataclasses.dataclass(cls), data_fields=["a"], meta_fields={meta})


@tree_util_helpers.struct
class Held:
    a: float


@plain
class Direct:
    a: float
"""


def _styles(source: str) -> dict[str, object]:
    ctx = ModuleContext(source, cst.parse_module(source), Options())
    found = {c.name.value: pytree_class(ctx, c) for c in ctx.nodes_of(cst.ClassDef)}
    return {name: tree.style if tree is not None else None for name, tree in found.items()}


def test_a_decorator_registering_every_field_as_data_makes_a_pytree_of_leaves() -> None:
    styles = _styles(DECORATOR.format(meta="[]"))
    assert styles["Held"] is ALL_LEAVES and styles["Direct"] is ALL_LEAVES
    assert styles["tree_util_helpers"] is None


@pytest.mark.parametrize("meta", ['["a"]', "META", "()"])
def test_meta_fields_not_shown_empty_is_not_read(meta: str) -> None:
    """A listed or computed meta list may make a field static: the class is not read as all leaves
    (an empty tuple literal is empty too, and counts)."""
    styles = _styles("META = []\n" + DECORATOR.format(meta=meta))
    expected = ALL_LEAVES if meta == "()" else None
    assert styles["Held"] is expected and styles["Direct"] is expected


def test_the_tree_math_package_decorator_is_known_by_name() -> None:
    source = "import tree_math\n\n\n@tree_math.struct\nclass State:\n    x: float\n"
    assert _styles(source)["State"] is ALL_LEAVES


def test_no_field_of_such_a_class_is_declared_static() -> None:
    """JAX306 cannot declare a field static where the decorator registers every field as data: a
    field read where Python needs it is reported, never rewritten."""
    source = DECORATOR.format(meta="[]") + textwrap.dedent(
        """\

        @tree_util_helpers.struct
        class Config:
            steps: int = 3


        @jax.jit
        def run(x, cfg):
            for _ in range(cfg.steps):
                x = x + 1
            return x


        print(run(1.0, Config()))
        """
    )
    found = [f for f in check(source, Options()).findings if f.code == "JAX306"]
    assert found and all(f.fix is None for f in found)
