"""JAX401-JAX404 decisions that golden files cannot show on their own: regressions from the corpus.

Each test here is a false positive once found on real code (/work/corpus),
cut down to the shape that caused it, with the JAX fact that makes it one
(docs/jax4xx-behaviour.md).
"""

from __future__ import annotations

import textwrap

from jaxfix.transforms import Options, check_source


def codes(src: str, prefix: str = "JAX40") -> list[tuple[str, int]]:
    found = check_source(textwrap.dedent(src), Options(select=frozenset({prefix})))
    return [(f.code, f.span.start.line) for f in found]


def test_jax402_not_inside_ensure_compile_time_eval() -> None:
    """jax tests/api_test.py: inside ``with core.eval_context()`` (and the public
    ``jax.ensure_compile_time_eval()``) a jnp call runs eagerly under jit, its result concrete (B)."""
    src = """\
        import jax
        import jax.numpy as jnp
        from jax._src import core


        @jax.jit
        def f(x):
            with core.eval_context():
                assert jnp.add(1, 1) == 2
            with jax.ensure_compile_time_eval():
                n = jnp.minimum(3, x.shape[0])
            return jnp.zeros(n)
        """
    assert codes(src) == []


def test_jax402_still_found_next_to_an_eager_block() -> None:
    src = """\
        import jax
        import jax.numpy as jnp


        @jax.jit
        def f(x):
            with jax.ensure_compile_time_eval():
                pass
            return jnp.zeros(jnp.minimum(3, x.shape[0]))
        """
    assert codes(src) == [("JAX402", 9)]


def test_jax404_not_for_a_default_the_jit_never_receives() -> None:
    """jax tests/debug_info_test.py: ``jax.jit(my_g)`` called with `b` alone; `d=1` stays a Python value (D)."""
    src = """\
        import jax


        @jax.jit(static_argnums=(1,))
        def my_f(a, d):
            return a


        def my_g(b, d=1):
            return my_f(b, d)


        check(jax.jit(my_g), 3)
        """
    assert codes(src) == []


DEFAULTED_HELPER = """\
import jax


@jax.jit(static_argnums=(1,))
def my_f(a, d):
    return a


@jax.jit
def my_g(b, d=1):
    return my_f(b, d)


{calls}
"""


def test_jax404_when_a_call_passes_the_defaulted_parameter() -> None:
    assert codes(DEFAULTED_HELPER.format(calls="my_g(1.0)\nmy_g(1.0, 2)")) == [("JAX404", 11)]


def test_jax404_default_left_alone_by_every_call() -> None:
    assert codes(DEFAULTED_HELPER.format(calls="my_g(1.0)")) == []


def test_jax401_vmap_over_a_static_parameter_fed_an_array_is_reported_not_unmapped() -> None:
    """The values differ per example: leaving them unmapped would change what the program computes."""
    src = """\
        from functools import partial
        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnums=1)
        def power(x, p):
            return x ** p

        print(jax.vmap(power)(jnp.arange(3.0), jnp.array([1, 2, 3])))
        print(jax.vmap(power, in_axes=(0, None))(jnp.arange(3.0), 2))
        """
    found = check_source(textwrap.dedent(src), Options(select=frozenset({"JAX401"})))
    assert [(f.code, f.line, f.fix) for f in found] == [("JAX401", 9, None)]


FORI_CARRY_SAME_NAME = """
import jax.numpy as jnp
from jax import jit, lax


def core(start, count, update_fun, state):
    def run_update(i, state):
        state = update_fun(i, state)
        return state

    return lax.fori_loop(start, start + count, run_update, state)


core_jit = jit(core, static_argnums=(1, 2, 3))


def update(i, s):
    return s * 0.5


def main(x):
    state = jnp.asarray(x)
    for _ in range(2):
        state = core_jit(0, 10, update, state)
    return state


print(main(jnp.ones(3)))
"""


def test_jax403_a_nested_def_rebinding_its_own_parameter_does_not_read_the_outer_one() -> None:
    """libcst 1.9 counts `update_fun(i, state)` in `run_update` as a read of `core`'s `state` (the
    nested def rebinds its own parameter there); it is not, so nothing unknown reads `state`, and
    the call passes an array on the loop's first run: the fix is safe."""
    (finding,) = [f for f in check_source(FORI_CARRY_SAME_NAME, Options()) if f.code == "JAX403"]
    assert "when the loop first runs" in finding.message
    assert finding.fix is not None and finding.fix.applicability.value == "safe"
    from jaxfix.transforms import fix_source

    assert "jit(core, static_argnums=(1, 2))" in fix_source(FORI_CARRY_SAME_NAME).text
