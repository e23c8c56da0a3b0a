"""JAX103 decisions beside its golden cases: look-alikes that run, and the rules it leaves to others."""

from __future__ import annotations

import textwrap

from jaxfix.transforms import Options, check_source, fix_source


def found(src: str) -> list[tuple[str, int]]:
    return [(f.code, f.span.start.line) for f in check_source(textwrap.dedent(src), Options())]


def test_operands_the_branches_only_compute_with_get_no_finding() -> None:
    """A traced operand works wherever a tracer does: arithmetic, jnp calls, a `.shape` read."""
    src = """\
        import jax.numpy as jnp
        from jax import lax

        N = 3

        def up(n, x):
            return x * n + jnp.sum(x) + x.shape[0]

        def down(n, x):
            return x - n

        print(lax.cond(True, up, down, N, jnp.ones(2)))
        print(lax.switch(1, [up, down], N, jnp.ones(2)))
        """
    assert found(src) == []


def test_a_value_already_bound_or_closed_over_gets_no_finding() -> None:
    src = """\
        from functools import partial
        import jax.numpy as jnp
        from jax import lax

        N = 3

        def make(n, x):
            return jnp.zeros((n,)) + x.sum()

        print(lax.cond(True, partial(make, N), partial(make, N), jnp.ones(2)))
        print(lax.cond(True, lambda x: jnp.zeros((N,)) + x.sum(), lambda x: jnp.ones((N,)), jnp.ones(2)))
        """
    assert found(src) == []


def test_a_traced_operand_is_not_proposed_for_binding() -> None:
    """`n` is a traced parameter of the enclosing jit: binding it keeps it a tracer."""
    src = """\
        import jax
        import jax.numpy as jnp
        from jax import lax

        def make(n, x):
            return jnp.zeros((n,)) + x.sum()

        @jax.jit
        def run(n, x):
            return lax.cond(True, make, make, n, x)
        """
    assert [c for c, _ in found(src) if c == "JAX103"] == []


def test_a_jitted_branch_with_static_parameters_stays_jax101s() -> None:
    src = """\
        from functools import partial
        import jax
        import jax.numpy as jnp
        from jax import lax

        @partial(jax.jit, static_argnums=0)
        def make(n, x):
            return jnp.zeros((n,)) + x.sum()

        print(lax.cond(True, make, make, 3, jnp.ones(2)))
        """
    assert found(src) == [("JAX101", 10)]


def test_lambda_branches_reaching_a_method_are_followed_and_bound() -> None:
    """dLux#260's shape: the lambdas hand the count to a method, which hands it to jnp.arange."""
    src = """\
        import jax.numpy as jnp
        from jax import lax

        class Grid:
            def coords(self, n, offset):
                return jnp.arange(n) - offset

            def pick(self, flag, offset):
                return lax.switch(flag, [lambda o, n: self.coords(n, o), lambda o, n: self.coords(n, -o)], offset, 4)

        print(Grid().pick(1, 0.5))
        """
    assert found(src) == [("JAX103", 9)]
    fixed = fix_source(textwrap.dedent(src), Options()).text
    assert "partial(lambda o, n: self.coords(n, o), n=4)" in fixed
