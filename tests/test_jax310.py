"""JAX310: which NumPy calls on a tracer become their jax.numpy twins (docs/jax310-behaviour.md)."""

from __future__ import annotations

import re

from jaxfix.transforms import Options, check_source, fix_source
from jaxfix.transforms.core.findings import Applicability
from jaxfix.transforms.semantics.numpy_twins import DELEGATING, SPECIAL_TWINS, TWINS

from .helpers import ROOT

SOURCE = """\
import jax
import numpy as np


@jax.jit
def f(x):
    return np.where(x > 0), np.where(x > 0, x, 0.0), np.cos(x)
"""


def test_one_argument_where_is_not_swapped() -> None:
    """It gives indices, as many as the data says: no twin computes that under jit."""
    assert [(f.code, f.span.start.column) for f in check_source(SOURCE, Options())] == [("JAX310", 28), ("JAX310", 53)]
    fixed = fix_source(SOURCE, Options()).text
    assert "np.where(x > 0), jax.numpy.where(x > 0, x, 0.0), jax.numpy.cos(x)" in fixed


def test_every_twin_was_probed_and_agrees() -> None:
    """The table in docs/jax310-behaviour.md ran each function both ways: the rule swaps no other."""
    rows = re.findall(r"^\| `(\w+)` \|.*\| (same|DIFFERS) \|$", (ROOT / "docs" / "jax310-behaviour.md").read_text(), re.M)
    assert {name for name, _ in rows} == set(TWINS)
    assert all(verdict == "same" for _, verdict in rows)


RECURSIVE = """\
import jax
import numpy as np


def f(x, n):
    if n == 0:
        return np.cos(x)
    return g(x, n - 1)


def g(x, n):
    return f(x, n)


jax.jit(f, static_argnums=1)(1.0, 2)
"""


def test_functions_that_call_each_other_are_asked_once() -> None:
    """Whether `f` also runs eagerly asks who calls it: `g`, whom `f` calls. The question once
    went round that circle until the module was "too deeply nested to analyse"."""
    found = [(f.code, f.fix is not None) for f in check_source(RECURSIVE, Options())]
    assert ("JAX310", True) in found


def test_every_scipy_special_twin_was_probed_and_agrees() -> None:
    """docs/jax310-behaviour.md C ran each scipy.special function and its jax.scipy.special twin."""
    rows = re.findall(r"^\| `(\w+)` \| (same \(rtol 1e-10, x64\)|differs.*?) \| scipy under jit: (\w+) \|", (ROOT / "docs" / "jax310-behaviour.md").read_text(), re.M)
    assert {name for name, _, _ in rows} == set(SPECIAL_TWINS)
    assert all(values.startswith("same") and traced == "TracerArrayConversionError" for _, values, traced in rows)


def test_the_functions_left_alone_on_a_tracer_are_those_that_work_on_one() -> None:
    """docs/jax310-behaviour.md D called each twin's NumPy function on a tracer under jit."""
    rows = re.findall(r"^\| `(\w+)` \| (works|\w+Error) \|$", (ROOT / "docs" / "jax310-behaviour.md").read_text(), re.M)
    assert {name for name, _ in rows} == set(TWINS)
    assert {name for name, result in rows if result == "works"} == set(DELEGATING)


DELEGATED = """\
import jax
import numpy as np


@jax.jit
def f(x):
    return np.sum(x) + np.sum([x[0], 1.0]) + np.cos(x)
"""


def test_a_tracer_handed_to_a_delegating_function_is_left_alone() -> None:
    """`np.sum(x)` is `x.sum()`, which works; `np.sum([x[0], 1.0])` converts a list and fails."""
    fixed = fix_source(DELEGATED, Options()).text
    assert "np.sum(x) + jax.numpy.sum([x[0], 1.0]) + jax.numpy.cos(x)" in fixed


LIST_OF_DRAWS = """\
import jax
import jax.numpy as jnp
import numpy as np

rng = np.random.RandomState(0)
a = {a}
b = {b}
xs = [a, b]

print(jax.vmap(lambda i: jnp.sum(xs[i]))(jnp.arange(2)))
"""


def _list_verdict(a: str, b: str) -> tuple[bool, bool]:
    """(a fix is offered, it is safe) for the list of the two draws indexed by a tracer."""
    (finding,) = [f for f in check_source(LIST_OF_DRAWS.format(a=a, b=b), Options()) if f.code == "JAX310"]
    return finding.fix is not None, finding.fix is not None and finding.fix.applicability is Applicability.SAFE


def test_a_list_is_stacked_safely_only_where_its_makers_show_one_shape() -> None:
    """`jnp.asarray` of a ragged list fails: the shape is read where the maker's signature says it is."""
    assert _list_verdict("rng.rand(3, 2)", "rng.rand(3, 2)") == (True, True)
    assert _list_verdict("rng.rand(3, 2)", "rng.rand(4, 2)") == (False, False)  # jax#19506: reported
    assert _list_verdict("np.zeros((3,))", "jnp.ones(3)") == (True, True)
    # np.random.normal(loc, scale, size): its second argument is a scale, not a shape
    assert _list_verdict("np.random.normal(0, 1, (3,))", "np.random.normal(0, 1, (4,))") == (True, False)
    # a method of something that is no RandomState says nothing of its shape
    assert _list_verdict("jnp.ones(3)", "np.random.default_rng(0).random(3)") == (True, False)
