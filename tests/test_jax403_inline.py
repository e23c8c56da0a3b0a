"""JAX403 where a function is jitted inline at several calls, each jit with its own static options."""

from __future__ import annotations

import textwrap

from jaxfix.transforms import Options, check_source

SOURCE = """\
import jax
import jax.numpy as jnp


def foo(n):
    if n > 1:
        return jnp.ones(1)
    return jnp.zeros(1)


print(jax.jit(foo, static_argnums=(0,))(1))
print(jax.jit(foo, static_argnums=(0,))({second}))
"""


def test_the_array_call_is_reported_at_its_own_jit_and_not_rewritten() -> None:
    [finding] = check_source(SOURCE.format(second="jnp.ones(1)"), Options())
    assert (finding.code, finding.line, finding.fix) == ("JAX403", 12, None)
    assert "`n > 1` (line 6) is a Python condition" in finding.message


def test_python_values_at_every_inline_jit_get_no_finding() -> None:
    assert check_source(SOURCE.format(second="3"), Options()) == []


def test_a_traced_second_jit_is_not_this_rules() -> None:
    source = SOURCE.format(second="2") + textwrap.dedent(
        """\
        print(jax.jit(foo)(jnp.ones(1)))
        """
    )
    assert all(f.code != "JAX403" for f in check_source(source, Options()))
