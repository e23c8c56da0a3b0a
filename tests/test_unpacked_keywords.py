"""``f(x, **cfg)``: a dict written out once and only ever unpacked into calls hands them its
keywords, so the static fixes read what each call passes (`passed_arguments.unpacked_keywords`)."""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import check_source, fix_source

MAKE = """
import jax
import jax.numpy as jnp

@jax.jit
def make(x, n):
    return jnp.zeros((n, x.shape[0])) + x

{cfg}
print(make(jnp.ones(2), **cfg).shape)
"""


@pytest.mark.parametrize("cfg", ['cfg = {"n": 3}', "cfg = dict(n=3)"])
def test_a_count_passed_through_an_unpacked_dict_is_made_static(cfg: str) -> None:
    src = textwrap.dedent(MAKE.format(cfg=cfg))
    (finding,) = check_source(src)
    assert finding.code == "JAX302" and finding.fix is not None
    assert '@partial(jax.jit, static_argnames=("n",))' in fix_source(src).text


@pytest.mark.parametrize(
    "cfg",
    [
        'cfg = {"n": 3}\ncfg["n"] = 4',  # changed on the way: not followed
        'cfg = {"n": 3}\nprint(cfg)',  # used other than by unpacking
        "cfg = load()",  # not written out
        'cfg = {"n": 3, **more}',  # holds what we cannot see
    ],
)
def test_a_dict_not_proven_is_not_read(cfg: str) -> None:
    src = textwrap.dedent(MAKE.format(cfg=cfg))
    assert all(f.fix is None for f in check_source(src))
