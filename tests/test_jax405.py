"""JAX405 decisions golden files cannot show on their own: look-alikes that work, the overlaps
with JAX301 and JAX401, and a function name bound twice (docs/jax405-behaviour.md)."""

from __future__ import annotations

import textwrap

from jaxfix.transforms import Options, check_source, fix_source


def found(src: str) -> list[tuple[str, int]]:
    return [(f.code, f.span.start.line) for f in check_source(textwrap.dedent(src), Options())]


HEADER = textwrap.dedent(
    """\
    from functools import partial

    import jax
    import jax.numpy as jnp


    def scale(x, s):
        return x * s


    def repeat(x, n):
        for _ in range(n):
            x = x + 1
        return x


    xs = jnp.ones((3, 2))
    x = jnp.ones(2)
    """
)


def test_python_values_handed_to_transforms_the_ways_that_work_get_no_finding() -> None:
    """Each line runs (docs/jax405-behaviour.md): traced but only multiplied, unmapped by
    in_axes=None, arrays, a count grad does not differentiate, checkpoint's static_argnums with a
    positional call, bound before vmap, make_jaxpr's static_argnums with a keyword call."""
    src = HEADER + textwrap.dedent(
        """\
    print(jax.checkpoint(scale)(x, 2.0))
    print(jax.vmap(scale, in_axes=(0, None))(xs, 3))
    print(jax.vmap(scale)(xs, xs))
    print(jax.grad(lambda x, n: repeat(x, n).sum())(x, 3))
    print(jax.checkpoint(repeat, static_argnums=(1,))(x, 3))
    print(jax.vmap(partial(repeat, n=2))(xs))
    print(jax.make_jaxpr(repeat, static_argnums=(1,))(x, n=2))
    print(jax.eval_shape(scale, x, 2.0))
    """
    )
    assert found(src) == []


def test_each_failing_spelling_gets_one_finding_and_its_repair() -> None:
    src = HEADER + textwrap.dedent(
        """\
    print(jax.vmap(scale)(xs, 3.0))
    print(jax.checkpoint(repeat)(x, 3))
    print(jax.make_jaxpr(repeat)(x, 2))
    print(jax.remat(repeat)(x, n=2))
    """
    )
    assert found(src) == [("JAX405", 19), ("JAX405", 20), ("JAX405", 21), ("JAX405", 22)]
    fixed = fix_source(textwrap.dedent(src), Options()).text
    assert "jax.vmap(scale, in_axes=(0, None))(xs, 3.0)" in fixed
    assert "jax.checkpoint(repeat, static_argnums=(1,))(x, 3)" in fixed
    assert "jax.make_jaxpr(repeat, static_argnums=(1,))(x, 2)" in fixed
    assert "jax.remat(partial(repeat, n=2))(x)" in fixed
    assert "JAX301" not in str(found(src)), "the loop count inside is the same bug: one finding, at the call"


def test_a_vmap_applied_where_the_function_is_named_is_reported_not_rewritten() -> None:
    src = HEADER + textwrap.dedent(
        """\
    scaled = jax.vmap(scale)
    print(scaled(xs, 3.0))
    print(scaled(xs, xs))
    """
    )
    results = check_source(textwrap.dedent(src), Options())
    assert [(f.code, f.line, f.fix) for f in results] == [("JAX405", 20, None)]
    assert "every call" in results[0].message


def test_an_outer_transform_over_a_jitted_static_parameter_stays_jax401s() -> None:
    src = """\
        from functools import partial

        import jax
        import jax.numpy as jnp


        @partial(jax.jit, static_argnums=1)
        def layer(w, width):
            return jnp.tile(w, width).sum()


        print(jax.checkpoint(layer)(jnp.ones(2), 3))
        """
    assert found(src) == [("JAX401", 12)]


def test_a_name_bound_to_two_functions_is_not_followed() -> None:
    """jax tests/api_test.py: `f` is a jitted def, called with 3, then a pmapped def of the same name."""
    src = """\
        import jax


        def test():
            @jax.jit
            def f(x):
                return x

            f(3)

            @jax.pmap
            def f(x):
                return x

            f(jax.numpy.ones((1, 2)))
        """
    assert found(src) == []


def test_indices_of_jnp_take_under_vmap_are_data_not_an_axis() -> None:
    """jax tests/lax_test.py: ``vmap(lambda x, i: jnp.take(x, i, axis=0))(xs, indices)``: take's
    second argument is the indices, which a tracer can be (only ``axis=`` must be static)."""
    src = """\
        import jax
        import jax.numpy as jnp

        xs = jnp.ones((3, 4))
        indices = jnp.array([[0, 1], [1, 2], [2, 3]])
        print(jax.vmap(lambda x, i: jnp.take(x, i, axis=0))(xs, indices))
        print(jax.vmap(lambda x, s: jnp.roll(x, s))(xs, jnp.array([1, 2, 3])))
        """
    assert found(src) == []


def test_a_named_application_gets_the_option_when_every_call_passes_a_python_value() -> None:
    src = HEADER + textwrap.dedent(
        """\
    scaled = jax.vmap(scale)
    print(scaled(xs, 3.0))
    print(scaled(2 * xs, 0.5))
    """
    )
    found = check_source(src, Options())
    # The second call's fix is the same edit: it becomes a note on the first finding (issue 17.5).
    assert [(f.code, f.line, f.fix is not None) for f in found] == [("JAX405", 20, True)]
    fixed = fix_source(src, Options()).text
    assert "scaled = jax.vmap(scale, in_axes=(0, None))\n" in fixed
    assert fix_source(fixed, Options()).text == fixed
