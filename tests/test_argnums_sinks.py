"""A differentiation's ``argnums`` needs Python ints (docs/differentiation-behaviour.md): a jitted
position becomes static (JAX302), a mapped one is reported with the loop as the option (JAX304),
a Python int is left alone; and an equinox module with a function leaf under stacked ``jax.jit``
and ``jax.grad`` gets equinox's filtered twins for both layers (equinox#361)."""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import Options, check, check_source, fix_source

HEAD = """\
import jax
import jax.numpy as jnp


def f(x, y):
    return x**3 + 2.0 * y**3
"""


def program(body: str) -> str:
    return HEAD + "\n\n" + textwrap.dedent(body)


def test_a_jitted_position_becomes_static() -> None:
    source = program(
        """\
        @jax.jit
        def d(i):
            return jax.grad(f, argnums=i)(1.0, 1.0)


        print(d(1))
        """
    )
    fixed = fix_source(source).text
    assert 'static_argnames=("i",)' in fixed and "argnums=i" in fixed


@pytest.mark.parametrize("spelled", ["jax.grad(f, i)", "jax.value_and_grad(f, argnums=i)", "jax.jacfwd(f, i)"])
def test_a_mapped_position_is_reported_with_the_loop(spelled: str) -> None:
    source = program(
        f"""\
        def d(i):
            return {spelled}(1.0, 1.0)


        print(jax.vmap(d)(jnp.array([0, 1])))
        """
    )
    findings = check_source(source)
    assert [f.code for f in findings] == ["JAX304"] and findings[0].fix is None
    assert any("loop over the positions" in note for note in findings[0].notes)
    assert [f.code for f in check(source, Options(), narrow=False).findings] == ["JAX304"]


def test_a_python_position_is_fine() -> None:
    source = program(
        """\
        print(jnp.stack([jax.grad(f, argnums=i)(1.0, 1.0) for i in range(2)]))
        """
    )
    assert check_source(source) == []


EQUINOX = """\
import equinox as eqx
import jax
import jax.numpy as jnp


{decorators}
def loss(model, x):
    return jnp.mean(jax.vmap(model)(x) ** 2)


mlp = eqx.nn.MLP(2, 1, 4, 1, key=jax.random.PRNGKey(0))
print(loss(mlp, jnp.ones((3, 2))))
"""


def test_stacked_jit_and_grad_become_filtered() -> None:
    fixed = fix_source(EQUINOX.format(decorators="@jax.jit\n@jax.grad")).text
    assert "@eqx.filter_jit\n@eqx.filter_grad\ndef loss" in fixed


def test_a_grad_with_options_is_reported_not_rewritten() -> None:
    source = EQUINOX.format(decorators="").replace(
        "print(loss(mlp, jnp.ones((3, 2))))", "print(jax.jit(jax.grad(loss, argnums=0))(mlp, jnp.ones((3, 2))))"
    )
    (finding,) = check_source(source)
    assert finding.code == "JAX302" and finding.fix is None and "not rewritten" in finding.message
