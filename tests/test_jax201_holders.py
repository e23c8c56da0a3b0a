"""JAX201 when the unhashable value is held by something: a frozen dataclass's field, an object's attribute.

A frozen dataclass hashes its fields (`class_hashing.hashed_fields`), so
``Config(sizes={...})`` passed as a static argument fails to hash exactly as
the dict would. The fix freezes the field where the instance is built; the
instance is followed to every use (`uses.UseChecker`, the "instance" shape),
and any use that could tell, or that we cannot follow, refuses the fix.
``self.config = {...}`` in ``__init__`` is followed to every ``self.config``
of the class (`instance_attributes`). Each fixed program is run with real JAX.
"""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import Options, fix_source
from jaxfix.transforms.core.findings import Applicability

from .helpers import findings_both_ways, run_in_process

pytest.importorskip("jax")
pytest.importorskip("frozendict")

HEAD = """\
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp

"""


def program(body: str) -> str:
    return HEAD + textwrap.dedent(body)


def jax201(src: str) -> list:
    return findings_both_ways(src, "JAX201")


run = run_in_process


CONFIG = """\
@dataclasses.dataclass(frozen=True)
class Config:
    hidden: int
    sizes: dict = dataclasses.field(default_factory=dict)

"""

JITTED = """\
@partial(jax.jit, static_argnames="cfg")
def f(x, cfg):
    return x * cfg.hidden + cfg.sizes["a"]

"""


@pytest.mark.parametrize(
    "build",
    [
        'cfg = Config(4, {"a": 1, "b": 2})',
        'cfg = Config(hidden=4, sizes={"a": 1, "b": 2})',
        'sizes = {"a": 1, "b": 2}\ncfg = Config(4, sizes=sizes)',
        'def make_config():\n    return Config(hidden=4, sizes={"a": 1, "b": 2})\n\ncfg = make_config()',
    ],
    ids=["positional", "keyword", "bound-name", "helper-returns-it"],
)
def test_a_dict_field_is_frozen_where_the_instance_is_built(build: str) -> None:
    src = program(CONFIG + JITTED + build + "\nRESULT = f(jnp.ones(2), cfg=cfg)\n")
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        run(src)
    (finding,) = jax201(src)
    assert "a `Config` whose field `sizes` is a dict" in finding.message
    after = fix_source(src).text
    assert 'frozendict({"a": 1, "b": 2})' in after
    assert run(after)["RESULT"].tolist() == [5.0, 5.0]
    assert fix_source(after).text == after


def test_a_list_field_under_a_jit_stacked_on_grad_becomes_a_tuple() -> None:
    """`@partial(jit, static_argnums=1)` over `@jax.grad`: grad hands argument 1 on as it is, so
    the jit's static slot binds as on the def itself (`jit_wrappers._differentiated_positions`)."""
    src = program("""\
        @dataclasses.dataclass(frozen=True)
        class Static:
            widths: list

        @partial(jax.jit, static_argnums=1)
        @jax.grad
        def loss(w, static):
            return sum(jnp.sum(w[:n]) for n in static.widths)

        GRAD = loss(jnp.arange(4.0), Static([1, 3]))
        """)
    (finding,) = jax201(src)
    after = fix_source(src).text
    assert "Static((1, 3))" in after
    assert run(after)["GRAD"].tolist() == [2.0, 1.0, 1.0, 0.0]


@pytest.mark.parametrize(
    ("use", "reason"),
    [
        ('cfg.sizes["c"] = 3', "changes an item"),
        ("print(cfg)", "frozen type or repr"),
        ("cfg.sizes.update(c=3)", "mutates it"),
        ("keep = dataclasses.asdict(cfg)", "cannot see into"),
    ],
    ids=["item-assigned", "printed", "updated", "handed-away"],
)
def test_a_use_that_would_notice_refuses_the_fix(use: str, reason: str) -> None:
    src = program(CONFIG + JITTED + 'cfg = Config(4, {"a": 1, "b": 2})\n' + use + "\nf(jnp.ones(2), cfg=cfg)\n")
    (finding,) = jax201(src)
    assert finding.fix is None
    assert reason in finding.message


def test_a_method_reading_the_field_is_followed_into() -> None:
    """The class's own methods read the field as ``self.sizes``: those reads decide, as any other."""
    reads_values = program("""\
        @dataclasses.dataclass(frozen=True)
        class Config:
            sizes: dict

            def total(self):
                return sum(self.sizes.values())

        @partial(jax.jit, static_argnums=1)
        def f(x, cfg):
            return x * cfg.total()

        f(jnp.ones(2), Config({"a": 1}))
        """)
    (finding,) = jax201(reads_values)
    assert finding.fix is not None
    compares = reads_values.replace("sum(self.sizes.values())", "1 if self.sizes == {'a': 1} else 2")
    (finding,) = jax201(compares)
    assert finding.fix is None
    assert "compares it" in finding.message


def test_a_method_reading_fields_wholesale_refuses_the_fix() -> None:
    src = program("""\
        @dataclasses.dataclass(frozen=True)
        class Config:
            sizes: dict

            def total(self):
                return sum(getattr(self, "sizes").values())

        @partial(jax.jit, static_argnums=1)
        def f(x, cfg):
            return x * cfg.total()

        f(jnp.ones(2), Config({"a": 1}))
        """)
    (finding,) = jax201(src)
    assert finding.fix is None
    assert "`cfg.total` is a method" in finding.message


@pytest.mark.parametrize(
    "config",
    [
        # left out of the hash: it runs
        "@dataclasses.dataclass(frozen=True)\nclass Config:\n    hidden: int\n"
        "    sizes: dict = dataclasses.field(default_factory=dict, compare=False)\n",
        "@dataclasses.dataclass(frozen=True)\nclass Config:\n    hidden: int\n"
        "    sizes: dict = dataclasses.field(default_factory=dict, hash=False)\n",
        # hashed by identity: it runs
        "@dataclasses.dataclass(frozen=True, eq=False)\nclass Config:\n    hidden: int\n    sizes: dict\n",
    ],
    ids=["compare-false", "hash-false", "eq-false"],
)
def test_a_field_outside_the_hash_gets_no_finding(config: str) -> None:
    src = program(config + "\n" + JITTED + 'cfg = Config(4, {"a": 1})\nRESULT = f(jnp.ones(2), cfg=cfg)\n')
    assert run(src)["RESULT"].tolist() == [5.0, 5.0]
    assert jax201(src) == []


@pytest.mark.parametrize(
    "build",
    [
        'Config(4, {"a": 1}, [1, 2])',  # two unhashable fields: one fix would not be enough
        'Config(4, {"a": 1}, jnp.ones(2))',  # an array field: no freeze helps
        'Config(4, {"a": 1}, other)',  # a field we cannot see: it may not hash either
    ],
    ids=["two-fields", "array-field", "unknown-field"],
)
def test_freezing_one_field_is_not_offered_when_another_may_not_hash(build: str) -> None:
    config = textwrap.dedent("""\
        @dataclasses.dataclass(frozen=True)
        class Config:
            hidden: int
            sizes: dict
            extra: object = None

        """)
    src = program(config + JITTED + f"def main(other):\n    return f(jnp.ones(2), cfg={build})\n")
    assert all(f.fix is None for f in jax201(src))


TRAINER = """\
class Trainer:
    def __init__(self, scale):
        self.scale = scale
        self.config = {build}

    @partial(jax.jit, static_argnums=(0, 2))
    def step(self, x, config):
        return x * self.scale + config["bias"]

    def run(self, x):
{run}
"""


@pytest.mark.parametrize(
    ("build", "method", "expected"),
    [
        # an int in each: a dict of floats alone would become traced (test_jax201.py)
        ('{"bias": 1}', "        return self.step(x, self.config)", 'frozendict({"bias": 1})'),
        ('Config(2, {"bias": 1.0})', "        return self.step(x, self.config)", 'frozendict({"bias": 1.0})'),
        ('{"bias": 1}', "        cfg = self.config\n        return self.step(x, cfg)", 'frozendict({"bias": 1})'),
    ],
    ids=["dict-attribute", "dataclass-attribute", "aliased-read"],
)
def test_an_attribute_set_in_init_is_frozen_there(build: str, method: str, expected: str) -> None:
    held = "Config" in build
    body = TRAINER.format(build=build, run=method)
    if held:
        body = CONFIG + body.replace('config["bias"]', 'config.sizes["bias"]')
    src = program(body + "\nRESULT = Trainer(2.0).run(jnp.ones(2))\n")
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        run(src)
    (finding,) = jax201(src)
    after = fix_source(src).text
    assert expected in after
    assert run(after)["RESULT"].tolist() == [3.0, 3.0]
    assert fix_source(after).text == after


@pytest.mark.parametrize(
    "extra",
    [
        "    def reset(self):\n        self.config['bias'] = 0.0\n",  # a method mutates it
    ],
    ids=["mutated-by-a-method"],
)
def test_an_attribute_another_method_changes_is_not_frozen(extra: str) -> None:
    body = TRAINER.format(build='{"bias": 1.0}', run="        return self.step(x, self.config)") + extra
    src = program(body + "\nRESULT = Trainer(2.0).run(jnp.ones(2))\n")
    (finding,) = jax201(src)
    # not frozen; made traced only with --unsafe-fixes (what the method puts in it is not read)
    assert finding.fix is None or finding.fix.applicability is Applicability.UNSAFE
    assert "frozendict" not in fix_source(src, Options(unsafe_fixes=True)).text
    assert "changes an item" in finding.message


@pytest.mark.parametrize(
    "tail",
    [
        "t = Trainer(2.0)\nt.config = {'bias': 2.0}\nt.run(jnp.ones(2))\n",  # stored from outside
        "t = Trainer(2.0)\nprint(t.config)\nt.run(jnp.ones(2))\n",  # read from outside
        "t = Trainer(2.0)\nkeep = [t]\nt.run(jnp.ones(2))\n",  # the instance escapes
        "t = Trainer(2.0)\nsetattr(t, 'config', {})\nt.run(jnp.ones(2))\n",  # by string
    ],
    ids=["stored-outside", "read-outside", "instance-escapes", "setattr"],
)
def test_an_attribute_touched_where_jaxfix_cannot_see_is_not_followed(tail: str) -> None:
    body = TRAINER.format(build='{"bias": 1.0}', run="        return self.step(x, self.config)")
    src = program(body + "\n" + tail)
    assert all(f.fix is None for f in jax201(src))
