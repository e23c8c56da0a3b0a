"""A factory returning a jitted closure: each call of the factory stands for the closure
(`tracing.TraceIndex._factory_calls`), so what the program passes the closure is seen; a
factory reached other than by direct calls, or a method of that name on another object, is not."""

from __future__ import annotations

import textwrap

from jaxfix.transforms import check_source

FACTORY = """
from functools import partial

import jax
import jax.numpy as jnp


def make_run(scale):
    @partial(jax.jit, static_argnums=(0,))
    def run(x):
        return x * scale
    return run

{use}
"""


def codes(use: str) -> list[str]:
    return [f"{f.code}{'*' if f.fix else ''}" for f in check_source(textwrap.dedent(FACTORY.format(use=use)))]


def test_an_array_handed_to_the_closures_static_slot_is_seen() -> None:
    assert codes("run = make_run(2.0)\nprint(run(jnp.ones(2)))") == ["JAX403*"]
    assert codes("print(make_run(2.0)(jnp.ones(2)))") == ["JAX403*"]


def test_a_factory_whose_result_escapes_is_not_followed() -> None:
    assert codes("runs = [make_run]\nprint(runs[0](2.0)(jnp.ones(2)))") == []
