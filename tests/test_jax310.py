"""JAX310: which NumPy calls on a tracer become their jax.numpy twins (docs/jax310-behaviour.md)."""

from __future__ import annotations

import re

from jaxfix.transforms import Options, check_source, fix_source
from jaxfix.transforms.semantics.numpy_twins import TWINS

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
