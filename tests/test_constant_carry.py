"""A static value threaded unchanged through a ``scan``/``fori_loop`` carry (repairs.constant_carry):
taken out of the carry where every condition holds, and reported, untouched, where one fails."""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import Options, check_source, fix_source

PROGRAM = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=0)
def project(cfg, x):
    return x * jnp.ones(cfg[0]).sum()


def body(carry, t):
    key, cfg, x = carry
    x = project(cfg, x) + t
    {rebind}carry = (key, cfg, x)
    return carry, x.sum()


@partial(jax.jit, static_argnums=1)
def run(key, cfg, x):
    carry = (key, cfg, x)
    carry, sums = jax.lax.scan({loop_body}, carry, jnp.arange(3.0))
    key, cfg, x = carry
    return {result}
{elsewhere}
print(run(jax.random.PRNGKey(0), (2,), jnp.ones(2)))
"""


def program(**parts: str) -> str:
    return PROGRAM.format(**({"rebind": "", "loop_body": "body", "result": "x, sums", "elsewhere": ""} | parts))


def test_taken_out_of_the_carry_and_bound_with_partial() -> None:
    (finding,) = check_source(program())
    assert finding.code == "JAX404" and finding.fix is not None
    result = fix_source(program())
    assert result.findings == ()
    assert "def body(carry, t, cfg):" in result.text
    assert "jax.lax.scan(partial(body, cfg=cfg), carry, jnp.arange(3.0))" in result.text
    assert "    key, x = carry\n    return x, sums" in result.text
    assert "carry = (key, x)\n    return carry, x.sum()" in result.text


@pytest.mark.parametrize(
    ("parts", "why"),
    [
        ({"rebind": "cfg = (cfg[0] + 1,)\n    "}, "the body changes it"),
        ({"result": "x, sums, cfg"}, "the loop's result at its place is read"),
        ({"elsewhere": "\nbody(None, 0.0) if False else None\n"}, "the body is called elsewhere"),
        ({"loop_body": "lambda c, t: body(c, t)"}, "the loop is not handed the body by name"),
    ],
)
def test_reported_not_rewritten_when_a_condition_fails(parts: dict[str, str], why: str) -> None:
    findings = check_source(program(**parts))
    assert [f.code for f in findings] == ["JAX404"], why
    assert findings[0].fix is None, why


def test_a_traced_start_is_no_static_value() -> None:
    """The element starts from a traced parameter: out of the carry, it would still be a tracer."""
    text = program().replace("@partial(jax.jit, static_argnums=1)\ndef run", "@jax.jit\ndef run")
    assert all(f.fix is None for f in check_source(text) if f.code == "JAX404")


def test_fori_loop_body_nested_where_the_loop_is_closes_over_it() -> None:
    source = textwrap.dedent(
        """\
        from functools import partial

        import jax
        import jax.numpy as jnp


        @partial(jax.jit, static_argnums=1)
        def tile(x, n):
            def step(i, state):
                acc, n = state
                return acc + jnp.zeros(n).sum() + i, n

            acc, _ = jax.lax.fori_loop(0, 3, step, (x, n))
            return acc


        print(tile(1.0, 4))
        """
    )
    assert [f.code for f in check_source(source)] == ["JAX304"]
    result = fix_source(source, Options())
    assert "acc, = state" in result.text and "jnp.zeros(n).sum() + i," in result.text and "(x,))" in result.text


def test_a_read_inside_the_returned_carry_is_refused_not_overlapped() -> None:
    """The body's name differs from the outer one and is read in the tuple it returns: renaming it
    and rewriting that tuple would overlap, so the finding stays a report."""
    source = textwrap.dedent(
        """\
        from functools import partial

        import jax
        import jax.numpy as jnp


        @partial(jax.jit, static_argnums=1)
        def tile(x, n):
            def step(i, state):
                acc, m = state
                return acc + jnp.zeros(m).sum() + i, m

            acc, _ = jax.lax.fori_loop(0, 3, step, (x, n))
            return acc


        print(tile(1.0, 4))
        """
    )
    (finding,) = check_source(source)
    assert finding.code == "JAX304" and finding.fix is None
