"""A test marked to be skipped or to fail is code known not to work: its findings are counted, not reported."""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import Options, check

BODY = """\
import unittest
import pytest
import jax

class Test(unittest.TestCase):
    {decorator}
    def test_inner_jit_result(self):
        out = jax.jit(lambda: int(jax.jit(lambda x: x)(3)))()
        self.assertEqual(out, 3)
"""


@pytest.mark.parametrize(
    "decorator", ['@unittest.skip("TODO")', "@unittest.expectedFailure", "@pytest.mark.skip", '@pytest.mark.xfail(reason="x")']
)
def test_marked_tests_are_expected_to_fail(decorator: str) -> None:
    result = check(textwrap.dedent(BODY.format(decorator=decorator)), Options())
    assert result.findings == [] and [f.code for f in result.expected] == ["JAX304"]


def test_a_conditional_skip_is_not() -> None:
    result = check(BODY.format(decorator='@unittest.skipIf(True, "gpu only")'), Options())
    assert [f.code for f in result.findings] == ["JAX304"]
