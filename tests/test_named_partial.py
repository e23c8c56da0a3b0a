"""A partial whose positional values are named for other parameters (``partial(f, alpha, T)``
with ``f(z, alpha, T)``): where Python's binding shifts an operand into a static slot, the values
are bound by keyword, for a loop body, a cond branch and a vmapped function alike; where the
names match their positions, or name no parameter, nothing is assumed."""

from __future__ import annotations

import textwrap

from jaxfix.transforms import check_source, fix_source

HEAD = """
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(3,))
def body(i, acc, alpha, T):
    for _ in range(T):
        acc = jnp.tanh(alpha * acc + 0.1)
    return acc


@partial(jax.jit, static_argnums=(2,))
def row(z, alpha, T):
    for _ in range(T):
        z = jnp.tanh(alpha * z)
    return z.sum()


alpha = 0.5
T = 3
"""


def run(tail: str) -> tuple[list, str]:
    src = textwrap.dedent(HEAD) + textwrap.dedent(tail)
    return [f for f in check_source(src) if f.code == "JAX101"], fix_source(src).text


def test_fori_loop_body_bound_by_name() -> None:
    (finding,), fixed = run("out = jax.lax.fori_loop(0, 2, partial(body, alpha, T), jnp.ones(2))\n")
    assert "binds `alpha` and `T` by position, to `i` and `acc`" in finding.message
    assert "static parameter `T`" in finding.message
    assert "jax.lax.fori_loop(0, 2, partial(body, alpha=alpha, T=T), jnp.ones(2))" in fixed


def test_vmap_applied_at_once_and_through_a_name() -> None:
    (finding,), fixed = run("out = jax.vmap(partial(row, alpha, T))(jnp.ones((3, 2)))\n")
    assert "jax.vmap(partial(row, alpha=alpha, T=T))(jnp.ones((3, 2)))" in fixed
    (finding,), fixed = run("g = jax.vmap(partial(row, alpha, T), in_axes=(0,))\nout = g(jnp.ones((3, 2)))\nout = g(jnp.ones((4, 2)))\n")
    assert "g = jax.vmap(partial(row, alpha=alpha, T=T), in_axes=(0,))" in fixed


def test_nothing_assumed_without_the_names() -> None:
    # Values that are not names of parameters: Python's binding is all we know.
    found, _ = run("a, b = 0.5, 3\nout = jax.vmap(partial(row, a, b))(jnp.ones((3, 2)))\n")
    assert found == []
    # Names in their own positions: nothing shifted (and nothing static receives an operand).
    found, _ = run("z = jnp.ones(2)\nout = jax.vmap(partial(row, z), in_axes=None)\n")
    assert found == []
    # The mapped function escapes (a name used other than by calls): not followed.
    found, _ = run("g = jax.vmap(partial(row, alpha, T))\nfns = [g]\n")
    assert found == []
    # An operand passed by keyword binds by name already: vmap is not followed there.
    found, _ = run("out = jax.vmap(partial(row, alpha, T))(z=jnp.ones((3, 2)))\n")
    assert found == []
