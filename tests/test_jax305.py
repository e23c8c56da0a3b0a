"""JAX305 decisions beside its golden case: look-alikes that run, and the shapes only reported."""

from __future__ import annotations

import textwrap

from jaxfix.transforms import Options, check_source, fix_source

HEADER = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp

    xs = jnp.array([-1.0, 2.0])
    """
)


def results(body: str):
    return check_source(HEADER + textwrap.dedent(body), Options())


def test_ifs_on_what_stays_concrete_under_vmap_get_no_finding() -> None:
    """Array metadata, an unmapped Python value, and a function only jitted (JAX302's) are left alone."""
    body = """\
        def shaped(x):
            if x.shape[0] > 2:
                return x.sum()
            return x.mean()

        def counted(x, n):
            if n > 2:
                return x * n
            return x

        print(jax.vmap(shaped)(jnp.ones((2, 3))))
        print(jax.vmap(counted, in_axes=(0, None))(xs, 3))
        """
    assert results(body) == []


def test_the_two_return_shape_becomes_a_selection_and_runs_alike() -> None:
    body = """\
        def relu_ish(x):
            if x > 0:
                return x * 2.0
            return x / 2.0

        print(jax.vmap(relu_ish)(xs))
        print(jax.grad(relu_ish)(1.0))
        """
    found = results(body)
    assert [(f.code, f.line, f.fix is not None) for f in found] == [("JAX305", 6, True)]
    fixed = fix_source(HEADER + textwrap.dedent(body), Options()).text
    assert "    return jnp.where(x > 0, x * 2.0, x / 2.0)\n\n" in fixed
    assert "if x > 0" not in fixed


def test_other_shapes_are_reported_with_the_options() -> None:
    body = """\
        def pair(x):
            if x > 0:
                return x, x
            return x, -x

        def noted(x):
            if x > 0:
                return x  # keep
            return -x

        def also_direct(x):
            if x > 0:
                return x
            return -x

        def effect(x):
            if x > 0:
                print("positive")
                return x
            return -x

        print(jax.vmap(pair)(xs), jax.vmap(noted)(xs), jax.vmap(also_direct)(xs), also_direct(2.0), jax.vmap(effect)(xs))
        """
    found = results(body)
    assert [(f.code, f.line, f.fix) for f in found] == [
        ("JAX305", 6, None),
        ("JAX305", 11, None),
        ("JAX305", 16, None),
        ("JAX305", 21, None),
    ]
    assert "also called directly" in found[2].message


def test_an_if_under_grad_alone_works_and_gets_no_finding() -> None:
    """grad, jacfwd, jacrev and hessian differentiate at concrete values: the `if` runs (measured)."""
    body = """\
        def piecewise(x):
            if x > 0:
                return x * 2.0
            return x / 2.0

        print(jax.grad(piecewise)(1.0), jax.jacfwd(piecewise)(1.0), jax.hessian(piecewise)(1.0))
        """
    assert results(body) == []


def test_truthiness_of_what_may_be_a_pytree_is_not_claimed() -> None:
    """brax positional/joints.py: `if limit:` under vmap where `limit` is a tuple of arrays (truthy
    whatever it holds); and a dict pytree iterated by key. Only an order comparison shows an array."""
    body = """\
        def update(x, limit):
            if limit:
                return x + limit[0]
            return x

        def views(obs):
            out = 0.0
            for key, value in obs.items():
                if key.startswith("pixels/"):
                    out = out + value.sum()
            return out

        print(jax.vmap(update)(xs, (xs, xs)))
        print(jax.vmap(views)({"pixels/a": jnp.ones((2, 3))}))
        """
    assert results(body) == []
