"""``@jax.jit`` above ``@staticmethod`` (jax#7702, JAX302's `jit_over_staticmethod`): the
staticmethod moves outermost where every decorator above it is a jit; left alone otherwise."""

from __future__ import annotations

import pytest

from jaxfix.transforms import check_source, fix_source

PROGRAM = """\
import functools

import jax


def traced(fn):
    return fn


class Model:
{decorators}
    def scale(x, n):
        return x * n
"""


@pytest.mark.parametrize(
    "decorators",
    [
        "    @jax.jit\n    @staticmethod",
        "    @functools.partial(jax.jit, static_argnums=1)\n    @staticmethod",
        "    @jax.jit\n    @staticmethod\n    @traced",
    ],
)
def test_staticmethod_moves_above_the_jits(decorators: str) -> None:
    source = PROGRAM.format(decorators=decorators)
    (finding,) = check_source(source)
    assert finding.code == "JAX302" and finding.fix is not None
    fixed = fix_source(source).text
    jits = [line for line in decorators.splitlines() if "staticmethod" not in line]
    assert fixed == PROGRAM.format(decorators="\n".join(["    @staticmethod", *jits]))
    assert fix_source(fixed).text == fixed


@pytest.mark.parametrize(
    "decorators",
    [
        "    @staticmethod\n    @jax.jit",  # already right
        "    @traced\n    @staticmethod",  # no jit above it
        "    @jax.jit\n    @traced\n    @staticmethod",  # another wrapper between
    ],
)
def test_other_orders_are_left_alone(decorators: str) -> None:
    assert check_source(PROGRAM.format(decorators=decorators)) == []
