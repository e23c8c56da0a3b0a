"""Repairs inside a loop body that the index or the carry reaches as a tracer (JAX304), and the
reports around them: ``if`` clamps selected with ``jnp.where`` keeping their comments, a window
slice made dynamic, ``float()`` of a value only differentiation traces, and a method reached
through an object a workspace hands out (jax#23637, jax#7222, jax#9085)."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from jaxfix.transforms import Options, check_source, fix_source, parse
from jaxfix.transforms.edits.statements import comments_kept
from jaxfix.transforms.semantics.module import ModuleContext

CLAMP = """\
import jax.numpy as jnp
from jax import lax


def bucket(rain, capacity=5.0):
    def body(day, level):
        level = level + rain[day]
        if level > capacity:  # overflow
            # spill what is above
            level = capacity
        {second}
        return level

    return lax.fori_loop(0, rain.shape[0], body, 0.0)
"""


def test_clamps_become_where_and_keep_their_comments() -> None:
    source = CLAMP.format(second="if level < 0.0:\n            level = 0.0")
    fixed = fix_source(source).text
    assert "        # overflow\n        # spill what is above\n        level = jnp.where(level > capacity, capacity, level)\n" in fixed
    assert "        level = jnp.where(level < 0.0, 0.0, level)\n" in fixed
    assert "if " not in fixed.split("def body")[1]


def test_a_hash_in_a_string_is_no_comment() -> None:
    source = 'if x:  # real\n    y = "#not"\n'
    ctx = ModuleContext(source, parse(source), Options())
    (branch,) = ctx.nodes_of(cst.If)
    assert comments_kept(ctx, branch) == "# real\n"


@pytest.mark.parametrize(
    "test",
    [
        "level < other",  # nothing shows what `level` held: it may be a tuple
        "(level, 1) < (0.0, 1)",
        "level < 0.0 < other",
    ],
)
def test_no_number_compared_no_proof_of_the_value_before(test: str) -> None:
    source = textwrap.dedent(
        f"""\
        from jax import lax


        def run(xs, other):
            def body(i, level):
                if {test}:
                    level = 0.0
                return level

            return lax.fori_loop(0, xs.shape[0], body, xs[0])
        """
    )
    assert all(f.fix is None for f in check_source(source))


WINDOW = """\
import jax
import jax.numpy as jnp
from jax import lax

WINDOW = 3


@jax.jit
def rolling_max(signal):
    n_out = signal.shape[0] - WINDOW + 1

    def body(i, acc):
        window = signal[{bounds}]
        return acc.at[i].set(window.max())

    return lax.fori_loop(0, n_out, body, jnp.zeros(n_out))
"""


def test_a_window_at_the_loop_index_becomes_a_dynamic_slice() -> None:
    source = WINDOW.format(bounds="i:i + WINDOW")
    (finding,) = check_source(source, Options(unsafe_fixes=True))
    assert finding.code == "JAX304" and finding.fix is not None
    assert "lax.dynamic_slice_in_dim(signal, i, WINDOW)" in fix_source(source, Options(unsafe_fixes=True)).text
    assert fix_source(source).text == source  # unsafe: a window past the end is moved back


@pytest.mark.parametrize("bounds", ["i:2 * i", "i:i + signal[0].astype(int)", "i:"])
def test_a_slice_of_no_static_length_is_reported(bounds: str) -> None:
    findings = check_source(WINDOW.format(bounds=bounds), Options(unsafe_fixes=True))
    assert findings and all(f.fix is None for f in findings)


WORKSPACE = """\
import jax
import jax.numpy as jnp


class Var:
    def __init__(self):
        self._val = 0.0

    def set_val(self, v):
        self._val = float(v)

    def get_val(self):
        return 1.0 + 0.02 * self._val


class Workspace:
    def __init__(self):
        self._objs = {{"lumi": Var(), "xsec": Var()}}
{extra}
    def obj(self, name):
        return self._objs[name]


ws = Workspace()


def nll(params):
    var = ws.obj("lumi")
    var.set_val(params[1])
    return params[0] + var.get_val()


print(jax.grad(nll)(jnp.array([1.0, 0.5])))
"""


def test_float_of_a_differentiated_value_in_a_method_of_a_handed_out_object_is_reported() -> None:
    (finding,) = check_source(WORKSPACE.format(extra=""))
    assert finding.code == "JAX304" and finding.fix is None and finding.line == 10
    assert "differentiation keeps its value" in finding.message


def test_an_object_table_changed_elsewhere_is_not_followed() -> None:
    extra = "\n    def add(self, name, var):\n        self._objs[name] = var\n"
    assert check_source(WORKSPACE.format(extra=extra)) == []


def test_float_of_a_differentiated_value_that_only_computes_drops_the_conversion() -> None:
    source = textwrap.dedent(
        """\
        import jax
        import jax.numpy as jnp


        def nll(p):
            return p[0] + float(p[1]) ** 2


        print(jax.grad(nll)(jnp.array([1.0, 0.5])))
        """
    )
    fixed = fix_source(source, Options(unsafe_fixes=True)).text
    assert "return p[0] + p[1] ** 2" in fixed
