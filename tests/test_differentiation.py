"""Differentiation alone hands a function tracers that keep their values (docs/differentiation-behaviour.md).

Rules that need a concrete value leave such code alone; a jit or vmap around it, or a
traced argument at the call, makes the value abstract again; a tracer passed where a jit
hashes a static argument fails whatever kind it is (golden `JAX404/grad_wrt_static`).
"""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import Options, check_source


def codes(source: str) -> list[str]:
    return [f.code for f in check_source(textwrap.dedent(source), Options())]



COUNT = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp

    def power_sum(x):
        n = int(x)
        acc = 0.0
        for k in range(n):
            acc = acc + x ** k
        return acc

    """
)


@pytest.mark.parametrize(
    "call",
    [
        "jax.grad(power_sum)(3.0)",
        "jax.value_and_grad(power_sum)(3.0)",
        "jax.jacfwd(power_sum)(3.0)",
        "jax.hessian(power_sum)(3.0)",
        "jax.grad(jax.grad(power_sum))(3.0)",
    ],
)
def test_a_count_under_differentiation_alone_is_concrete(call: str) -> None:
    assert codes(COUNT + f"print({call})\n") == []


@pytest.mark.parametrize(
    "call",
    [
        "jax.jit(jax.grad(power_sum))(3.0)",
        "jax.grad(jax.jit(power_sum))(3.0)",
        "jax.vmap(jax.grad(power_sum))(jnp.array([2.0, 3.0]))",
    ],
)
def test_a_jit_or_vmap_around_differentiation_makes_it_abstract(call: str) -> None:
    assert "JAX301" in codes(COUNT + f"print({call})\n")


def test_a_traced_argument_at_the_differentiated_call_is_still_abstract() -> None:
    source = COUNT + textwrap.dedent(
        """\
        @jax.jit
        def outer(y):
            return jax.grad(power_sum)(y)

        print(outer(3.0))
        """
    )
    assert "JAX301" in codes(source)


def test_a_python_if_on_a_differentiated_value_is_left_alone() -> None:
    source = """\
    import jax

    def relu_ish(x):
        if x > 0:
            return x
        return 0.1 * x

    print(jax.grad(relu_ish)(2.0))
    """
    assert codes(source) == []
