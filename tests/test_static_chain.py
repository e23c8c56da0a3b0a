"""JAX302 through a second jit: a flag a jitted function hands to another jitted function, whose body
needs it concrete, must become static on both; the one finding carries both edits, proven when the
inner jit's every call passes a Python value or the outer parameter made static by the same fix."""

from __future__ import annotations

import pytest

from jaxfix.transforms import Options, check, fix_source

from .helpers import run_in_process

HEAD = "import jax\nimport jax.numpy as jnp\n\n\n"

INNER = '''@jax.jit
def step(x, training):
    return x * 0.5 if not training else x


'''

OUTER = '''@jax.jit
def fit(x, training):
    for _ in range(3):
        x = step(x, training)
    return x


'''


def jax302(src: str):
    both = [[(f.line, bool(f.fix)) for f in check(src, Options(), narrow=n).findings if f.code == "JAX302"] for n in (True, False)]
    assert both[0] == both[1], "the fast path and the whole analysis disagree"
    return [f for f in check(src, Options(), narrow=False).findings if f.code == "JAX302"]


def test_both_jits_become_static_in_one_finding_and_the_program_runs() -> None:
    src = HEAD + INNER + OUTER + "RESULT = fit(jnp.ones(2), False)\n"
    (finding,) = jax302(src)
    assert finding.fix and "and on `step`, which it passes `training` to" in finding.message
    fixed = fix_source(src, Options()).text
    assert fixed.count('@partial(jax.jit, static_argnames=("training",))') == 2
    assert run_in_process(fixed)["RESULT"].tolist() == [0.125, 0.125]
    assert fix_source(fixed, Options()).text == fixed


def test_an_inner_jit_another_caller_hands_a_tracer_is_reported() -> None:
    other = "@jax.jit\ndef other(x, flag):\n    return step(x, flag)\n\n\n"
    src = HEAD + INNER + OUTER + other + "RESULT = fit(jnp.ones(2), False)\nOTHER = other(jnp.ones(2), jnp.asarray(True))\n"
    findings = jax302(src)
    chained = [f for f in findings if "`fit`" in f.message]
    assert chained and chained[0].fix is None and "must become static on the jitted `step` too" in chained[0].message


@pytest.mark.parametrize(
    "inner",
    [
        "@jax.jit\ndef step(x, training):\n    return jnp.where(training, x, x * 0.5)\n\n\n",  # a tracer works there
    ],
)
def test_an_inner_jit_that_takes_a_tracer_gets_nothing(inner: str) -> None:
    src = HEAD + inner + OUTER + "RESULT = fit(jnp.ones(2), False)\n"
    assert jax302(src) == []
    run_in_process(src)


def test_a_cond_on_a_parameter_made_static_becomes_the_python_choice_only_there() -> None:
    """Making `T` static turns `lax.cond(T == 0, ...)` into the branch it would choose; a cond whose
    predicate also reads a traced value (`x.sum() > 0`) or a branch that is a call stays a cond."""
    from jaxfix.transforms import Options, fix_source

    source = (
        "import jax\nimport jax.numpy as jnp\n\n\n"
        "@jax.jit\n"
        "def run(x, T=0):\n"
        "    def short():\n"
        "        return jnp.zeros((1, 2)) + x\n\n"
        "    def long():\n"
        "        return jnp.zeros((T + 1, 2)) + x\n\n"
        "    a = jax.lax.cond(T == 0, short, long)\n"
        "    b = jax.lax.cond(x.sum() > 0, lambda: x, lambda: -x)\n"
        "    return a, b\n\n\n"
        "print(run(jnp.ones(2), T=3))\n"
    )
    fixed = fix_source(source, Options()).text
    assert "    a = (short if T == 0 else long)()\n" in fixed
    assert "    b = jax.lax.cond(x.sum() > 0, lambda: x, lambda: -x)\n" in fixed
    assert 'static_argnames=("T",)' in fixed
