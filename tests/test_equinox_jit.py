"""JAX302: an equinox module holding a function as a leaf, passed to a bare ``jax.jit``, fails at
every call (docs/jax306-behaviour.md, P6); the jit becomes ``eqx.filter_jit``. Both paths agree;
the rewritten programs run with the real equinox."""

from __future__ import annotations

import pytest

from jaxfix.transforms import Options, check, fix_source

from .helpers import run_in_process

pytest.importorskip("equinox")

HEAD = "import equinox as eqx\nimport jax\nimport jax.numpy as jnp\n\nkey = jax.random.PRNGKey(0)\n"

APPLY = """

@jax.jit
def apply(model, x):
    return model(x)


RESULT = apply({model}, jnp.ones(3)).round(4)
"""


def findings(src: str):
    both = [[(f.code, f.line, bool(f.fix)) for f in check(src, Options(), narrow=n).findings] for n in (True, False)]
    assert both[0] == both[1], "the fast path and the whole analysis disagree"
    return [f for f in check(src, Options(), narrow=False).findings if f.code == "JAX302"]


@pytest.mark.parametrize(
    "model",
    [
        "eqx.nn.MLP(3, 2, 4, 2, key=key)",
        "eqx.nn.Sequential([eqx.nn.Linear(3, 3, key=key), eqx.nn.Lambda(jax.nn.relu)])",
        "Block(jax.nn.tanh, jnp.eye(3))",
        "Net(3, key)",
    ],
    ids=["mlp", "sequential-lambda", "own-callable-field", "own-init-holding-mlp"],
)
def test_the_jit_becomes_filter_jit(model: str) -> None:
    classes = (
        "\n\nclass Block(eqx.Module):\n    act: object\n    w: jax.Array\n\n    def __call__(self, x):\n"
        "        return self.act(self.w @ x)\n\n\nclass Net(eqx.Module):\n    mlp: eqx.nn.MLP\n\n"
        "    def __init__(self, size, key):\n        self.mlp = eqx.nn.MLP(size, 2, 4, 1, key=key)\n\n"
        "    def __call__(self, x):\n        return self.mlp(x)\n"
    )
    src = HEAD + classes + APPLY.format(model=model)
    (finding,) = findings(src)
    assert finding.fix is not None, finding.message
    fixed = fix_source(src, Options()).text
    assert "@eqx.filter_jit\ndef apply" in fixed
    eager = run_in_process(src.replace("@jax.jit\n", ""))["RESULT"].tolist()
    assert run_in_process(fixed)["RESULT"].tolist() == eager
    assert fix_source(fixed, Options()).text == fixed


def test_jit_by_assignment_and_an_import_added() -> None:
    src = (
        "import jax\nimport jax.numpy as jnp\nfrom equinox import nn\n\n\ndef apply(model, x):\n    return model(x)\n\n\n"
        "apply = jax.jit(apply)\nRESULT = apply(nn.MLP(3, 2, 4, 2, key=jax.random.PRNGKey(0)), jnp.ones(3))\n"
    )
    fixed = fix_source(src, Options()).text
    assert "apply = filter_jit(apply)" in fixed and "from equinox import filter_jit\n" in fixed  # as `nn` is imported
    assert len(run_in_process(fixed)["RESULT"].tolist()) == 2


@pytest.mark.parametrize(
    "src",
    [
        HEAD + APPLY.format(model="eqx.nn.Linear(3, 2, key=key)"),  # only arrays and static fields: jit works
        HEAD + APPLY.replace("@jax.jit", "@eqx.filter_jit").format(model="eqx.nn.MLP(3, 2, 4, 2, key=key)"),
    ],
    ids=["linear", "already-filter-jit"],
)
def test_look_alikes_get_no_finding(src: str) -> None:
    assert findings(src) == []
    run_in_process(src)


def test_a_jit_with_options_is_reported() -> None:
    src = HEAD + APPLY.replace("@jax.jit", "@jax.jit(donate_argnums=1)").format(model="eqx.nn.MLP(3, 2, 4, 2, key=key)")
    src = src.replace("import jax\n", "import jax\n")
    (finding,) = findings(src)
    assert finding.fix is None and "not a bare `jax.jit`" in finding.message
