"""JAX302 for ``self``: a method jitted with ``@jax.jit`` traces the instance (jax#5595).

The fix makes ``self`` static, proven only when the class is surely no pytree, hashes by
identity, and nothing the method reads of ``self`` can change after ``__init__``
(`rules/jax302_param_needs_static/jitted_self.py`). Each fixed program runs with real JAX.
"""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import fix_source

from .helpers import findings_both_ways, run_in_process

pytest.importorskip("jax")

HEAD = "import jax\nimport jax.numpy as jnp\n\n\n"


def program(body: str) -> str:
    return HEAD + textwrap.dedent(body)


def jax302(src: str) -> list:
    return findings_both_ways(src, "JAX302")


run = run_in_process


MODEL = """\
class Model:
    def __init__(self, scale):
        self.scale = scale

    @jax.jit
    def apply(self, x):
        return self.helper(x) + 1.0

    def helper(self, x):
        return x * self.scale
{extra}
m = Model(2.0)
RESULT = m.apply(jnp.ones(2))
{tail}"""


def test_a_jitted_method_gets_a_static_self() -> None:
    src = program(MODEL.format(extra="", tail=""))
    with pytest.raises(TypeError, match="Error interpreting argument"):
        run(src)
    (finding,) = jax302(src)
    assert finding.fix is not None
    after = fix_source(src).text
    assert '@partial(jax.jit, static_argnames=("self",))' in after
    assert run(after)["RESULT"].tolist() == [3.0, 3.0]
    assert fix_source(after).text == after


def test_an_instance_built_at_the_call_is_surely_of_the_class() -> None:
    src = program(MODEL.format(extra="", tail="").replace("m = Model(2.0)\nRESULT = m.apply", "RESULT = Model(2.0).apply"))
    (finding,) = jax302(src)
    assert finding.fix is not None
    assert run(fix_source(src).text)["RESULT"].tolist() == [3.0, 3.0]


@pytest.mark.parametrize(
    ("extra", "tail", "reason"),
    [
        ("\n    def rescale(self, s):\n        self.scale = s\n", "", "may change after `__init__`"),
        ("", "m.scale = 3.0\n", "may change after `__init__`"),
        ("", "keep = [m]\n", "may change after `__init__`"),
    ],
    ids=["a-method-assigns-it", "assigned-from-outside", "instance-escapes"],
)
def test_state_that_may_change_is_reported_not_fixed(extra: str, tail: str, reason: str) -> None:
    src = program(MODEL.format(extra=extra, tail=tail))
    (finding,) = jax302(src)
    assert finding.fix is None
    assert reason in finding.message


def test_a_container_changed_in_place_is_reported() -> None:
    src = program("""\
        class Model:
            def __init__(self):
                self.history = []

            @jax.jit
            def apply(self, x):
                return x * len(self.history)

            def log(self, v):
                self.history.append(v)

        m = Model()
        m.log(1)
        m.apply(jnp.ones(2))
        """)
    (finding,) = jax302(src)
    assert finding.fix is None
    assert "changes `self.history` in place" in finding.message


@pytest.mark.parametrize(
    "src",
    [
        # already static
        "from functools import partial\n\nclass M:\n    @partial(jax.jit, static_argnums=0)\n"
        "    def f(self, x):\n        return x\n\nM().f(1.0)\n",
        # a pytree: self is traced fine
        "@jax.tree_util.register_pytree_node_class\nclass M:\n    def __init__(self, w):\n        self.w = w\n"
        "    def tree_flatten(self):\n        return (self.w,), None\n    @classmethod\n"
        "    def tree_unflatten(cls, aux, children):\n        return cls(*children)\n    @jax.jit\n"
        "    def f(self, x):\n        return x * self.w\n\nM(2.0).f(1.0)\n",
        # a dataclass: hashing it is JAX201's question
        "import dataclasses\n\n@dataclasses.dataclass(frozen=True)\nclass M:\n    w: float\n    @jax.jit\n"
        "    def f(self, x):\n        return x * self.w\n\nM(2.0).f(1.0)\n",
    ],
    ids=["already-static", "pytree", "dataclass"],
)
def test_look_alikes_get_no_self_finding(src: str) -> None:
    src = program(src)
    assert not [f for f in jax302(src) if "`self`" in f.message]
