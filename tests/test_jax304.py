"""JAX304 beside its golden cases (an element of a random draw is golden `JAX304/randint_count_indexed`):
a jitted helper's result, and a look-alike that only asks for identity."""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import Options, check_source


def codes(source: str) -> list[str]:
    return [f.code for f in check_source(textwrap.dedent(source), Options())]


def test_a_jitted_helpers_result_inside_jit_is_an_array() -> None:
    source = """\
    from functools import partial
    import jax
    import jax.numpy as jnp

    def f(n):
        return n

    jit_f = jax.jit(f, static_argnums=0)

    @partial(jax.jit, static_argnums=0)
    def g(n):
        m = jit_f(n)
        return jnp.ones(3) * float(m)

    print(g(1))
    """
    [finding] = check_source(textwrap.dedent(source), Options())
    assert finding.code == "JAX304"
    assert "call the function itself (`f`) without its jit" in finding.message


@pytest.mark.parametrize("test", ["mask is not None", "None is not mask"])
def test_an_identity_test_on_an_indexed_array_needs_no_concrete_value(test: str) -> None:
    source = f"""\
    import jax
    import jax.numpy as jnp

    @jax.jit
    def masked(x, n):
        mask = (jnp.arange(4) < n)[:, None]
        flat = mask.reshape(-1) if {test} else None
        return jnp.where(flat, x, 0.0)

    print(masked(jnp.ones(4), 2))
    """
    assert codes(source) == []
