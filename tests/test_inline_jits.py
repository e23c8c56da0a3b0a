"""Several jits applied right at their calls (`jax.jit(f)(x, 3)` twice, `jax.jit(f).lower(...)`,
`jax.jit(jax.jacrev(f))`): one edit per jit, each proven on its own call (repairs.static_parameter)."""

from __future__ import annotations

import textwrap

from jaxfix.transforms import Options, check_source, fix_source
from jaxfix.transforms.core.findings import Applicability

SRC = """\
    import jax
    import jax.numpy as jnp


    def solve(y, steps):
        if steps == 1:
            return y
        return y * steps


    print(jax.jit(solve).lower(jnp.ones(3), 4).compile() is not None)
    print(jax.jit(solve)(jnp.ones(3), {second}))
    """


def test_every_inline_jit_gets_the_static_argument_when_every_call_passes_a_python_value() -> None:
    src = textwrap.dedent(SRC.format(second="4"))
    assert [(f.code, f.line) for f in check_source(src, Options())] == [("JAX302", 6)]
    fixed = fix_source(src, Options()).text
    assert fixed.count('jax.jit(solve, static_argnames=("steps",))') == 2


def test_one_call_passing_an_array_leaves_every_jit_alone() -> None:
    """An array cannot be static: the second jit's call keeps `steps` traced, so no jit is rewritten;
    the `if` only chooses a value, so it is selected with `jnp.where` (unsafe), which takes `steps`
    traced or not."""
    src = textwrap.dedent(SRC.format(second="jnp.array(4)"))
    found = check_source(src, Options())
    assert [(f.code, f.line) for f in found] == [("JAX302", 6)]
    (fix,) = [f.fix for f in found]
    assert fix is not None and fix.applicability is Applicability.UNSAFE
    assert [e.content for e in fix.edits] == ["return jnp.where(steps == 1, y, y * steps)"]


def test_a_jit_over_grad_of_the_parameter_itself_is_not_made_static() -> None:
    """grad traces its argnums: making that parameter static on the outer jit would be wrong."""
    src = textwrap.dedent(
        """\
        import jax


        def f(x, n):
            if n > 0:
                return x * n
            return x


        print(jax.jit(jax.grad(f, argnums=1))(2.0, 3.0))
        """
    )
    assert all(f.fix is None for f in check_source(src, Options()))
