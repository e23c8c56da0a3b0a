"""JAX304: ``jit_f = jax.jit(f, static_argnums=0)`` called inside another jit returns a tracer where
Python needs a value (jax#14666); the call runs the plain ``f`` instead, when ``f`` there is the def,
the jit sets nothing but static arguments, every input is a Python value and the result only goes
where a Python value works. Checked on both paths, and the rewritten programs run."""

from __future__ import annotations

import pytest

from jaxfix.transforms import Options, check, fix_source

from .helpers import run_in_process

PROGRAM = """\
from functools import partial

import jax


def f(N):
    return N * 2


jit_f = jax.jit(f, static_argnums=0)


@partial(jax.jit, static_argnums=0)
def g(N):
    fN = jit_f(N)
    return float(fN) + 0.5


RESULT = g(3)
"""


def findings(src: str):
    both = [[(f.code, f.line, bool(f.fix)) for f in check(src, Options(), narrow=n).findings] for n in (True, False)]
    assert both[0] == both[1], "the fast path and the whole analysis disagree"
    return [f for f in check(src, Options(), narrow=False).findings if f.code == "JAX304"]


def test_the_call_runs_the_plain_function() -> None:
    (finding,) = findings(PROGRAM)
    assert finding.fix is not None and "runs `f` itself" in finding.message
    fixed = fix_source(PROGRAM, Options()).text
    assert "    fN = f(N)\n" in fixed and "jit_f = jax.jit(f, static_argnums=0)" in fixed
    assert run_in_process(fixed)["RESULT"].tolist() == 6.5


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (("    fN = jit_f(N)\n", "    f = print\n    fN = jit_f(N)\n"), "`f` is another value where the call is"),
        (("jax.jit(f, static_argnums=0)", "jax.jit(f, static_argnums=0, donate_argnums=())"), "the jit does more"),
        (("return float(fN) + 0.5", "return float(fN) + fN.astype(float)"), "the result is used as an array"),
    ],
    ids=["shadowed", "donate", "array-method"],
)
def test_no_rewrite_where_it_is_not_proven(change: tuple[str, str], why: str) -> None:
    """The plain function is not called; what is left is JAX304's other repair, dropping the
    `float()` whose float only feeds arithmetic, unsafe here (`fN` may hold an int)."""
    src = PROGRAM.replace(*change)
    (finding,) = findings(src)
    assert "runs `f` itself" not in finding.message, why
    assert finding.fix is None or finding.fix.applicability.value == "unsafe", why
    assert finding.fix is None or finding.fix.description.startswith("drop the conversion"), why
