"""Static fixes at a jit applied to a bound method (``jax.jit(net.apply)``) or around a
differentiation (``jax.jit(jax.grad(loss))``): the jit sees the method's parameters after the
receiver, and grad hands the ones it does not differentiate on as they are. Each edit below was
run with JAX: the fixed program prints what the hand fix prints."""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import check_source, fix_source

NET = """
import jax
import jax.numpy as jnp

class Net:
    def apply(self, x, n_steps, scale):
        for _ in range(n_steps):
            x = jnp.tanh(x) * scale
        return x

net = Net()
apply = jax.jit(net.apply{options})
print(apply(jnp.ones(2), 3, 1.5))
"""


@pytest.mark.parametrize(
    "options, fixed",
    [
        ("", 'jax.jit(net.apply, static_argnames=("n_steps",))'),
        (", static_argnums=(2,)", "jax.jit(net.apply, static_argnums=(2, 1))"),  # positions after `self`
    ],
)
def test_a_count_made_static_at_a_bound_methods_jit(options: str, fixed: str) -> None:
    src = textwrap.dedent(NET.format(options=options))
    (finding,) = check_source(src)
    assert finding.code == "JAX301" and finding.fix is not None
    assert fixed in fix_source(src).text


def test_a_bound_methods_jit_already_static_is_left_alone() -> None:
    assert check_source(textwrap.dedent(NET.format(options=", static_argnums=(1,)"))) == []


def test_a_count_made_static_around_grad() -> None:
    src = textwrap.dedent(
        """
        import jax
        import jax.numpy as jnp

        def loss(params, x, n_layers):
            h = x
            for i in range(n_layers):
                h = jnp.tanh(h * params[i])
            return h.sum()

        grad_fn = jax.jit(jax.grad(loss))
        print(grad_fn(jnp.ones(3), jnp.ones(2), 3))
        """
    )
    assert 'jax.jit(jax.grad(loss), static_argnames=("n_layers",))' in fix_source(src).text
    # grad differentiates on the count itself: no static edit can serve it.
    src = src.replace("jax.grad(loss)", "jax.grad(loss, argnums=2)")
    assert "static_argnames" not in fix_source(src).text
