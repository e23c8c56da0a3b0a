"""JAX306 on the edges: a field of a registered dataclass that a trace hands over as a tracer and
something needs concrete gets ``metadata=dict(static=True)``; working look-alikes get nothing.

The golden cases (golden/JAX306) run such programs with JAX; each case here is checked on the
fast path and the whole analysis, and the rewritten programs are run.
"""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import Options, check, fix_source
from jaxfix.transforms.core.findings import Applicability

from .helpers import run_in_process

HEAD = """\
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Config:
    scale: jax.Array
    {field}

"""


def program(body: str, field: str = "steps: int = 3") -> str:
    return HEAD.format(field=field) + textwrap.dedent(body)


def findings(src: str):
    """JAX306's findings, the same on the fast path and the whole analysis."""
    both = [[(f.code, f.line, bool(f.fix)) for f in check(src, Options(), narrow=n).findings if f.code == "JAX306"] for n in (True, False)]
    assert both[0] == both[1], "the fast path and the whole analysis disagree"
    return [f for f in check(src, Options(), narrow=False).findings if f.code == "JAX306"]


JITTED_LOOP = """
@jax.jit
def run(x, config: Config):
    for _ in range(config.steps):
        x = x * config.scale
    return x


RESULT = run(jnp.ones(2), Config(jnp.asarray(2.0)))
"""


def test_a_plain_field_gets_a_static_declaration_and_the_program_runs() -> None:
    src = program(JITTED_LOOP)
    (finding,) = findings(src)
    assert finding.fix.applicability is Applicability.SAFE
    fixed = fix_source(src, Options()).text
    assert "steps: int = dataclasses.field(default=3, metadata=dict(static=True))" in fixed
    assert run_in_process(fixed)["RESULT"].tolist() == [8.0, 8.0]
    assert fix_source(fixed, Options()).text == fixed


def test_a_field_without_default_keeps_none() -> None:
    src = program(JITTED_LOOP.replace("Config(jnp.asarray(2.0))", "Config(jnp.asarray(2.0), 3)"), field="steps: int")
    fixed = fix_source(src, Options()).text
    assert "steps: int = dataclasses.field(metadata=dict(static=True))" in fixed
    assert run_in_process(fixed)["RESULT"].tolist() == [8.0, 8.0]


def test_field_imported_by_name_is_spelled_so() -> None:
    src = program(JITTED_LOOP).replace("import dataclasses\n", "import dataclasses\nfrom dataclasses import field\n")
    fixed = fix_source(src, Options()).text
    assert "steps: int = field(default=3, metadata=dict(static=True))" in fixed


def test_a_scan_carry_annotated_with_the_class_is_traced() -> None:
    src = program(
        """
        def body(carry: Config, x):
            total = jnp.zeros((carry.steps,)) + x
            return carry, total.sum()


        _, RESULT = jax.lax.scan(body, Config(jnp.asarray(1.0)), jnp.arange(3.0))
        """
    )
    (finding,) = findings(src)
    assert finding.fix
    assert run_in_process(fix_source(src, Options()).text)["RESULT"].tolist() == [0.0, 3.0, 6.0]


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("""
        @jax.jit
        def run(x, config: Config):
            return jnp.zeros((config.steps,)) + x

        config = Config(jnp.asarray(1.0))
        config.steps = 4
        RESULT = run(jnp.ones(1), config)
        """, "assigns `config.steps`"),
        ("""
        @jax.jit
        def run(x, config: Config):
            return jnp.zeros((config.steps,)) + x

        make = Config
        RESULT = run(jnp.ones(1), make(jnp.asarray(1.0)))
        """, "cannot see every instance"),
        ("""
        @jax.jit
        def run(x, config: Config):
            return jnp.zeros((config.steps,)) + x

        RESULT = run(jnp.ones(1), Config(jnp.asarray(1.0), steps=[3]))
        """, "`[3]`, a list"),
    ],
)
def test_values_not_proven_or_a_field_assigned_is_reported(body: str, why: str) -> None:
    (finding,) = findings(program(body))
    assert finding.fix is None and why in finding.message


def test_metadata_already_there_is_not_merged() -> None:
    src = program(JITTED_LOOP, field='steps: int = dataclasses.field(default=3, metadata={"doc": "n"})')
    (finding,) = findings(src)
    assert finding.fix is None and "already has a `metadata`" in finding.message


@pytest.mark.parametrize(
    "body",
    [
        # closed over, not an argument: the field is the Python int it was given
        """
        CONFIG = Config(jnp.asarray(2.0))

        @jax.jit
        def run(x):
            return jnp.zeros((CONFIG.steps,)) + x

        RESULT = run(jnp.ones(1))
        """,
        # an argument vmap leaves unmapped, outside any jit: no tracer
        """
        def run(x, config: Config):
            return jnp.zeros((config.steps,)) + x

        RESULT = jax.vmap(run, in_axes=(0, None))(jnp.ones((2, 1)), Config(jnp.asarray(2.0)))
        """,
        # traced, but only computed with: a tracer multiplies
        """
        @jax.jit
        def run(x, config: Config):
            return x * config.steps

        RESULT = run(jnp.ones(1), Config(jnp.asarray(2.0)))
        """,
        # eager only
        """
        def run(x, config: Config):
            return jnp.zeros((config.steps,)) + x

        RESULT = run(jnp.ones(1), Config(jnp.asarray(2.0)))
        """,
    ],
)
def test_working_look_alikes_get_nothing(body: str) -> None:
    src = program(body)
    assert findings(src) == []
    run_in_process(src)  # and they do work


def test_a_field_already_static_gets_nothing() -> None:
    src = program(JITTED_LOOP, field="steps: int = dataclasses.field(default=3, metadata=dict(static=True))")
    assert findings(src) == []
    assert run_in_process(src)["RESULT"].tolist() == [8.0, 8.0]


NESTED = '''
import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Gate:
    closed: bool = False

    def __call__(self, x):
        if self.closed:
            return x * 0
        return x

    def describe(self):
        return "closed" if self.closed else "open"


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Layer:
    weight: jax.Array
    gate: Gate


def make(closed):
    return [Layer(jnp.asarray(2.0), Gate(closed=closed)) for _ in range(2)]


{use}
'''


def test_an_instance_nested_in_a_scan_carry_is_traced_in_its_call() -> None:
    use = (
        "def body(layers, x):\n    for layer in layers:\n        x = layer.gate(layer.weight * x)\n    return layers, x\n\n\n"
        "layers = make(False)\n_, RESULT = jax.lax.scan(body, layers, jnp.arange(3.0))\n"
    )
    src = NESTED.format(use=use)
    (finding,) = findings(src)
    assert finding.fix and "may be built into `layers` of `body`" in finding.message
    fixed = fix_source(src, Options()).text
    assert "closed: bool = dataclasses.field(default=False, metadata=dict(static=True))" in fixed
    assert run_in_process(fixed)["RESULT"].tolist() == [0.0, 4.0, 8.0]


@pytest.mark.parametrize(
    "use",
    [
        # a method traced code never reaches: it runs eagerly, on Python values
        "def body(layers, x):\n    return layers, x * layers[0].weight\n\n\n"
        "layers = make(False)\n_, RESULT = jax.lax.scan(body, layers, jnp.arange(3.0))\nNAME = layers[0].gate.describe()\n",
        # the instances are closed over by the scan body, not carried
        "LAYERS = make(True)\n\ndef body(c, x):\n    return c, LAYERS[0].gate(x)\n\n\n"
        "_, RESULT = jax.lax.scan(body, 0.0, jnp.arange(3.0))\n",
    ],
)
def test_nested_instances_that_stay_python_values_get_nothing(use: str) -> None:
    src = NESTED.format(use=use)
    assert findings(src) == []
    run_in_process(src)


REGISTERED_BY_CALL = """\
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class MyContainer:
    name: str
    a: jax.Array
    n: int


jax.tree_util.register_dataclass(MyContainer, data_fields=["a", "n"], meta_fields=["name"])


@jax.jit
def f(c):
    return jnp.zeros((c.n,)) + c.a


RESULT = f(MyContainer("x", jnp.ones(()), 3))
"""


REGISTERED_BY_DECORATOR = """\
import dataclasses
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.tree_util.register_dataclass, data_fields=["a", "n"], meta_fields=["name"])
@dataclasses.dataclass
class MyContainer:
    name: str
    a: jax.Array
    n: int


@jax.jit
def f(c):
    return jnp.zeros((c.n,)) + c.a


RESULT = f(MyContainer("x", jnp.ones(()), 3))
"""


@pytest.mark.parametrize(
    ("src", "registered"),
    [
        (REGISTERED_BY_CALL, 'register_dataclass(MyContainer, data_fields=["a"], meta_fields=["name", "n"])'),
        (REGISTERED_BY_DECORATOR, 'register_dataclass, data_fields=["a"], meta_fields=["name", "n"])'),
    ],
    ids=["call", "partial-decorator"],
)
def test_a_registered_class_gets_the_field_moved_into_meta_fields(src: str, registered: str) -> None:
    """The JAX documentation's form, ``register_dataclass(Cls, data_fields=[...], meta_fields=[...])``,
    and its decorator spelling (jaxsim's), ``@partial(register_dataclass, ...)`` over ``@dataclass``:
    the literal lists are read and edited alike."""
    (finding,) = findings(src)
    assert finding.fix.applicability is Applicability.SAFE
    fixed = fix_source(src, Options()).text
    assert registered in fixed
    assert run_in_process(fixed)["RESULT"].tolist() == [1.0, 1.0, 1.0]
    assert fix_source(fixed, Options()).text == fixed


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (('data_fields=["a", "n"]', 'data_fields=[\n    "a",\n    "n",\n]'), "a list over several lines"),
        (('data_fields=["a", "n"]', 'data_fields=["a"]'), "a field the lists do not name: not read"),
    ],
    ids=["lists-over-lines", "field-unlisted"],
)
def test_lists_jaxfix_does_not_rewrite(change: tuple[str, str], why: str) -> None:
    src = REGISTERED_BY_CALL.replace(*change)
    found = findings(src)
    assert all(f.fix is None for f in found), why

