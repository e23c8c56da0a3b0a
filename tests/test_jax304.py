"""JAX304 beside its golden cases (an element of a random draw is golden `JAX304/randint_count_indexed`):
a jitted helper's result, and a look-alike that only asks for identity."""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import Options, check_source


def codes(source: str) -> list[str]:
    return [f.code for f in check_source(textwrap.dedent(source), Options())]


def test_a_jitted_helpers_result_inside_jit_is_an_array() -> None:
    source = """\
    from functools import partial
    import jax
    import jax.numpy as jnp

    def f(n):
        return n

    jit_f = jax.jit(f, static_argnums=0)

    @partial(jax.jit, static_argnums=0)
    def g(n):
        m = jit_f(n)
        return jnp.ones(3) * float(m)

    print(g(1))
    """
    [finding] = check_source(textwrap.dedent(source), Options())
    assert finding.code == "JAX304"
    assert "this call runs `f` itself" in finding.message and finding.fix is not None  # jit_f = jax.jit(f): f is plain


@pytest.mark.parametrize("test", ["mask is not None", "None is not mask"])
def test_an_identity_test_on_an_indexed_array_needs_no_concrete_value(test: str) -> None:
    source = f"""\
    import jax
    import jax.numpy as jnp

    @jax.jit
    def masked(x, n):
        mask = (jnp.arange(4) < n)[:, None]
        flat = mask.reshape(-1) if {test} else None
        return jnp.where(flat, x, 0.0)

    print(masked(jnp.ones(4), 2))
    """
    assert codes(source) == []


HELPER = """\
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(0,))
def add1(i):
    return i + 1


@functools.partial(jax.jit, static_argnums=(0,))
def my_arange(k):
    return jnp.arange(add1(k))
{tail}
print(my_arange(5))
"""


@pytest.mark.parametrize(
    "tail, why",
    [
        ("\nprint(add1(3))\n", "used outside traced code at line 16"),
        ("\n@jax.jit\ndef other(x):\n    return add1(2).astype(x.dtype)\n", "`add1(2).astype(x.dtype)`"),
        ("\n@jax.jit\ndef other(x):\n    helpers = [add1]\n    return x\n", "is used other than by a call"),
    ],
)
def test_a_helpers_jit_stays_where_it_does_more_than_return_arrays(tail: str, why: str) -> None:
    """An eager call compiles through the jit, an `.astype` needs the array, a stored reference
    goes where we cannot see: each keeps the jit, and the finding says why."""
    [finding] = check_source(HELPER.format(tail=tail), Options())
    assert finding.code == "JAX304" and finding.fix is None
    assert "without its jit (not done here: " in finding.message
    assert why in finding.message


LOOP_BODY = """\
import jax
import jax.numpy as jnp


def body(i, acc):
    return acc + {use}


print(jax.lax.fori_loop(0, 3, body, 0.0))
"""


@pytest.mark.parametrize(
    "use, code",
    [
        ("jnp.zeros(i + 1).sum()", "JAX304"),  # a shape from the loop index: reported here
        ("sum(1.0 for _ in range(i))", "JAX301"),  # a loop count: JAX301's
        ("jnp.ones(3)[i]", None),  # indexing takes a tracer
    ],
)
def test_a_value_a_loop_primitive_hands_its_body(use: str, code: str | None) -> None:
    assert codes(LOOP_BODY.format(use=use)) == ([code] if code else [])


def test_a_cond_operand_a_branch_needs_is_left_to_jax103() -> None:
    source = """\
    import jax
    import jax.numpy as jnp

    def grow(n):
        return jnp.zeros(n).sum()

    def keep(n):
        return 0.0

    print(jax.lax.cond(True, grow, keep, 3))
    """
    assert codes(source) == ["JAX103"]


FLOAT_OF_A_JITTED_PARAMETER = """\
import jax


@jax.jit
def scale(x, factor):
    return x * float(factor)


print(scale(jax.numpy.ones(2), 0.5))
"""


def test_float_of_a_jitted_parameter_that_only_feeds_arithmetic_loses_the_conversion() -> None:
    """The parameter is a tracer under the jit; `float()` refuses it, and the product takes the
    array as readily. Unsafe: nothing shows `factor` is floating (an int would stay an int)."""
    from jaxfix.transforms import Options, check_source, fix_source
    from jaxfix.transforms.core.findings import Applicability

    (finding,) = [f for f in check_source(FLOAT_OF_A_JITTED_PARAMETER, Options()) if f.code == "JAX304"]
    assert finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE
    fixed = fix_source(FLOAT_OF_A_JITTED_PARAMETER, Options(unsafe_fixes=True)).text
    assert "return x * factor" in fixed


FORI_HEADER = """\
import jax
import jax.numpy as jnp

shapes = ((2, 3), (3, 2), (6, 1))


def f(idx, vec):
    return vec.reshape(shapes[idx]).ravel() * 2.0

"""


@pytest.mark.parametrize(
    ("tail", "expected", "name", "steps"),
    [
        (
            "CARRY = jnp.arange(6.0)\nCARRY = jax.lax.fori_loop(0, len(shapes), f, CARRY)\n",
            "CARRY = jnp.arange(6.0)\nfor i in range(0, len(shapes)):\n    CARRY = f(i, CARRY)\n",
            "CARRY",
            3,
        ),
        (
            "OUT = jax.lax.fori_loop(1, 3, f, jnp.arange(6.0))\n",
            "OUT = jnp.arange(6.0)\nfor i in range(1, 3):\n    OUT = f(i, OUT)\n",
            "OUT",
            2,
        ),
    ],
    ids=["carry-named-as-result", "carry-given-inline"],
)
def test_an_eager_fori_loop_whose_body_needs_its_index_becomes_a_python_loop(tail: str, expected: str, name: str, steps: int) -> None:
    from jaxfix.transforms import fix_source

    from .helpers import run_in_process

    source = FORI_HEADER + tail
    [finding] = check_source(source, Options())
    assert finding.code == "JAX304" and finding.fix is not None
    fixed = fix_source(source, Options()).text
    assert fixed == FORI_HEADER + expected
    assert run_in_process(fixed)[name].tolist() == [k * 2.0**steps for k in range(6)]


@pytest.mark.parametrize(
    ("tail", "why"),
    [
        ("@jax.jit\ndef run(v):\n    v = jax.lax.fori_loop(0, 3, f, v)\n    return v\n\nprint(run(jnp.arange(6.0)))\n", "runs under a trace"),
        ("n = int(input() or 3)\nv = jax.lax.fori_loop(0, n, f, jnp.arange(6.0))\n", "bounds are not Python ints"),
        ("print(jax.lax.fori_loop(0, 3, f, jnp.arange(6.0)))\n", "not assigned to a name"),
        ("v = jax.lax.fori_loop(0, 3, f, jnp.arange(6.0), unroll=True)\n", "more than its bounds"),
    ],
    ids=["under-jit", "bound-from-input", "not-assigned", "unroll-keyword"],
)
def test_a_fori_loop_not_proven_to_run_alike_as_a_python_loop_is_reported(tail: str, why: str) -> None:
    [finding] = check_source(FORI_HEADER + tail, Options())
    assert finding.code == "JAX304" and finding.fix is None, why


CEIL = """\
from functools import partial

import jax.numpy as jnp


@partial(jax.jit, static_argnames=("total", "step"))
def grid(x, total, step):
    n = int(jnp.ceil(total / step))
    return x * jnp.arange(n)


GRID = grid(2.0, 6.4, 2.0)
"""


def test_jnp_on_static_floats_is_computed_at_trace_time() -> None:
    """phentax#28: `int(jnp.ceil(total / step))` of static floats; the statement runs in
    ``jax.ensure_compile_time_eval()``, and the program runs."""
    from jaxfix.transforms import fix_source

    from .helpers import run_in_process

    source = "import jax\n" + CEIL
    [finding] = check_source(source, Options())
    assert finding.code == "JAX304" and finding.fix is not None
    fixed = fix_source(source, Options()).text
    assert "    with jax.ensure_compile_time_eval():\n        n = int(jnp.ceil(total / step))\n" in fixed
    assert run_in_process(fixed)["GRID"].tolist() == [0.0, 2.0, 4.0, 6.0]


def test_a_statement_over_lines_is_wrapped_whole() -> None:
    """ott#114 writes its call over two lines: every line of the statement moves into the block,
    by the module's own indentation step, and the program runs."""
    from jaxfix.transforms import fix_source

    from .helpers import run_in_process

    source = "import jax\n" + CEIL.replace("    n = int(jnp.ceil(total / step))\n", "    n = int(jnp.ceil(\n        total / step))\n")
    fixed = fix_source(source, Options()).text
    assert "    with jax.ensure_compile_time_eval():\n        n = int(jnp.ceil(\n            total / step))\n" in fixed
    assert run_in_process(fixed)["GRID"].tolist() == [0.0, 2.0, 4.0, 6.0]


def test_trace_time_evaluation_of_a_traced_operand_is_reported() -> None:
    """A traced `step`: no block can make the value concrete, nor can NumPy (it fails on a tracer)."""
    source = "import jax\n" + CEIL.replace('static_argnames=("total", "step")', 'static_argnames=("total",)')
    found = [f for f in check_source(source, Options()) if f.code == "JAX304"]
    assert found and all(f.fix is None for f in found)


def test_statement_a_block_cannot_wrap_gets_the_inexact_numpy_twin() -> None:
    """A string across lines, which indenting into the block would change: the block is refused, and
    NumPy's twin computes the static floats instead (float64 where jnp has float32: unsafe)."""
    from jaxfix.transforms import fix_source
    from jaxfix.transforms.core.findings import Applicability

    from .helpers import run_in_process

    source = "import jax\n" + CEIL.replace("    n = int(jnp.ceil(total / step))\n", '    n = int(jnp.ceil(total / step) + len("""\n"""))\n')
    found = [f for f in check_source(source, Options()) if f.code == "JAX304"]
    assert len(found) == 1 and found[0].fix is not None and found[0].fix.applicability is Applicability.UNSAFE
    assert all("ensure_compile_time_eval" not in e.content for e in found[0].fix.edits)
    fixed = fix_source(source, Options(unsafe_fixes=True)).text
    assert 'n = int(np.ceil(total / step) + len("""\n"""))' in fixed
    assert run_in_process(fixed)["GRID"].tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]


def test_psum_of_a_python_constant_is_concrete_and_of_data_is_not() -> None:
    """docs/jax4xx-behaviour.md F: ``lax.psum(1, axis)`` is the axis size, computed in Python; a
    psum of what jit traces is a tracer like any other."""
    source = """\
    import jax
    import jax.numpy as jnp
    from jax import lax

    def ring(x, axis_name):
        for _ in range(lax.psum(1, axis_name)):
            x = x + 1.0
        return x

    @jax.jit
    def sized(x):
        return jnp.zeros(lax.psum(jnp.sum(x > 0), "i"))

    print(jax.vmap(lambda x: ring(x, "i"), axis_name="i")(jnp.arange(3.0)))
    print(jax.vmap(sized, axis_name="i")(jnp.arange(3.0)))
    """
    found = check_source(textwrap.dedent(source), Options())
    assert [(f.code, f.line) for f in found] == [("JAX304", 12)]


INITIALIZER = """\
import flax.linen as nn
import jax
import jax.numpy as jnp


def init_fn(key, shape):
    n = jnp.log2(shape[0])
    return jnp.ones(shape) * jnp.arange(n).sum()


class Layer(nn.Module):
    width: {annotation}

    @nn.compact
    def __call__(self, x):
        return x * self.param("w", init_fn, (self.width,))


layer = Layer({width})
params = jax.jit(layer.init)(jax.random.PRNGKey(0), jnp.ones(4))
"""


@pytest.mark.parametrize(
    ("annotation", "width", "fixed"),
    [("int", "4", True), ("Any", "4", True), ("Any", "jnp.array(4)", False)],
    ids=["int-field", "untyped-field-built-with-an-int", "untyped-field-built-with-an-array"],
)
def test_a_linen_initializer_is_computed_at_trace_time_only_from_python_fields(annotation: str, width: str, fixed: bool) -> None:
    """flax#1077: what `self.param` hands the initializer is a field of the module; a field declared
    with a Python type is a Python value, and so is one every construction of the module gives a
    Python value; one built with an array may hold a tracer's twin, and is not claimed static."""
    source = INITIALIZER.format(annotation=annotation, width=width)
    if annotation == "Any":
        source = "from typing import Any\n" + source
    [finding] = check_source(source, Options())
    assert finding.code == "JAX304" and (finding.fix is not None) == fixed, finding.message


def test_the_element_lax_map_hands_its_function_is_a_tracer_on_both_paths() -> None:
    """jax#1575: ``lax.map`` is a scan over its array's leading axis: `int()` of what it hands the
    function fails, and the fast path seeds the function as the whole analysis finds it."""
    from jaxfix.transforms import check

    source = textwrap.dedent(
        """\
        import jax
        import jax.numpy as jnp

        table = jnp.array([0, 0, 1])

        def pick(i):
            idx = int(table[i])
            return jnp.float32(idx)

        print(jax.lax.map(pick, jnp.arange(3)))
        """
    )
    both = [[(f.code, f.line, f.fix) for f in check(source, Options(), narrow=n).findings] for n in (True, False)]
    assert both[0] == both[1] == [("JAX304", 7, None)]


def test_a_list_filled_by_append_is_not_computed_at_trace_time() -> None:
    """`dist = []` then `dist.append(tracer)`: the display `[]` is not what the list holds when
    `dist[jnp.argmin(jnp.asarray(dist))]` reads it, so no `ensure_compile_time_eval` block is
    claimed to make it concrete (it would still be a tracer there): the item is read from
    `jnp.asarray(dist)` instead (jax#5839's fix, `repairs.list_as_array`); a constant list that
    nothing changes is computed at trace time (dynamiqs#532's save times)."""
    source = textwrap.dedent(
        """\
        import jax
        import jax.numpy as jnp

        TIMES = [0.0, 0.5, 1.0]


        @jax.jit
        def nearest(x):
            dist = []
            for t in TIMES:
                dist.append(jnp.abs(x - t))
            return dist[jnp.argmin(jnp.asarray(dist))]


        @jax.jit
        def first_gap():
            later = int(jnp.argmax(jnp.asarray(TIMES) > 0.2))
            return [1.0, 2.0][later]
        """
    )
    found = {f.line: f for f in check_source(source, Options())}
    assert set(found) == {12, 17} and all(f.code == "JAX304" for f in found.values())
    # no block (it would still be a tracer there): the item is read from the array the statement makes
    assert found[12].fix is not None and all("ensure_compile_time_eval" not in e.content for e in found[12].fix.edits)
    assert [e.content for e in found[12].fix.edits] == ["jnp.asarray(dist)"]
    assert found[17].fix is not None, found[17].message
