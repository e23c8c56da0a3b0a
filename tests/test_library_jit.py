"""JAX302 on a library function jitted at its call (docs/jax302-behaviour.md, E)."""

from __future__ import annotations

import pytest

from jaxfix.transforms import Options, check_source, fix_source
from jaxfix.transforms.rules.jax302_param_needs_static.library_jit import AXIS_SLOT, LEADING, OPTION_SLOTS, slot
from jaxfix.transforms.semantics.size_arguments import ALL, SIZE_ARGUMENTS

HEAD = "import jax\nimport jax.numpy as jnp\nfrom jax import jit\nfrom jax.nn import one_hot\nkey = jax.random.PRNGKey(0)\n"


def fixed(line: str) -> tuple[list[str], str]:
    source = HEAD + line + "\n"
    codes = [f.code for f in check_source(source, Options())]
    return codes, fix_source(source, Options()).text.removeprefix(HEAD).strip()


@pytest.mark.parametrize(
    ("line", "after"),
    [
        ("print(jax.jit(one_hot)(3, 5))", "print(jax.jit(one_hot, static_argnums=1)(3, 5))"),
        ("y = jax.jit(jax.nn.one_hot)(labels, num_classes=10)", 'y = jax.jit(jax.nn.one_hot, static_argnames=("num_classes",))(labels, num_classes=10)'),
        ("z = jax.jit(jnp.zeros)((2, 3))", "z = jax.jit(jnp.zeros, static_argnums=0)((2, 3))"),
        ("r = jax.jit(jax.random.normal)(key, (3,))", "r = jax.jit(jax.random.normal, static_argnums=1)(key, (3,))"),
        ("print(jit(jnp.sum)(jnp.arange(4), 0))", "print(jit(jnp.sum, static_argnums=1)(jnp.arange(4), 0))"),
        ("m = jax.jit(jnp.mean)(x, axis=(0, 1))", 'm = jax.jit(jnp.mean, static_argnames=("axis",))(x, axis=(0, 1))'),
        ("n = jax.jit(jnp.linalg.norm)(x, ord=jnp.inf)", 'n = jax.jit(jnp.linalg.norm, static_argnames=("ord",))(x, ord=jnp.inf)'),
        ("n = jax.jit(jnp.linalg.norm)(x, 'fro')", "n = jax.jit(jnp.linalg.norm, static_argnums=1)(x, 'fro')"),
        ("print(jax.make_jaxpr(jax.lax.integer_pow)(x, 4))", "print(jax.make_jaxpr(jax.lax.integer_pow, static_argnums=1)(x, 4))"),
        ("print(jax.jit(jax.lax.integer_pow)(x, 4))", "print(jax.jit(jax.lax.integer_pow, static_argnums=1)(x, 4))"),
        (
            "norm = jax.jit(jnp.linalg.norm)\nprint(norm(x, ord=1), norm(x, ord=2.5))",
            'norm = jax.jit(jnp.linalg.norm, static_argnames=("ord",))\nprint(norm(x, ord=1), norm(x, ord=2.5))',
        ),
    ],
)
def test_the_size_becomes_static_at_the_jit(line: str, after: str) -> None:
    assert fixed(line) == (["JAX302"], after)


@pytest.mark.parametrize(
    "line",
    [
        "z = jax.jit(jnp.zeros)((2, 3), jnp.float32)",  # a dtype would need to be static too
        "z = jax.jit(jnp.zeros)(n)",  # the size is not a proven Python value
        "z = jax.jit(jnp.zeros, static_argnums=0)((2, 3))",  # already static
        "s = jax.jit(jnp.split)(x, [1, 2])",  # not in the vetted table, and a list is unhashable
        "y = jax.jit(one_hot)(labels, 10, axis=0)",  # a keyword that may need to be static
        "s = jax.jit(jnp.sum)(x, 0, jnp.float32)",  # a dtype would need to be static too
        "s = jax.jit(jnp.sum)(x, keepdims=True)",  # not the axis
        "norm = jax.jit(jnp.linalg.norm)\nprint(norm(x, ord=p))",  # the order is not a proven Python value
        "norm = jax.jit(jnp.linalg.norm)\nf = norm",  # used other than by calls
        "p = jax.make_jaxpr(jax.lax.integer_pow)(x, y=4)",  # make_jaxpr has no static_argnames
        "p = jax.make_jaxpr(jax.lax.integer_pow)(x, 2.5)",  # the exponent must be an int
        "p = jax.make_jaxpr(jnp.zeros)((2, 3), jnp.float32)",  # a dtype would need to be static too
    ],
)
def test_calls_it_cannot_prove_are_left_alone(line: str) -> None:
    assert fixed(line)[0] == []


def test_every_vetted_function_is_a_size_argument_row_with_positions() -> None:
    sizes = [name for name in LEADING if slot(name) is not AXIS_SLOT and name not in OPTION_SLOTS]
    assert all(name in SIZE_ARGUMENTS and SIZE_ARGUMENTS[name][1] != ALL for name in sizes)
    assert all(LEADING[name] == 2 for name in LEADING if slot(name) is AXIS_SLOT)
