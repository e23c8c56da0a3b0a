"""`p or default` of an optional parameter a jit traces (semantics.optional_defaults, JAX309).

One bug, one finding: JAX309 rewrites the `or` to an `is None` test, and JAX302 does not also ask
for the parameter to be static there. The look-alikes: a function also run eagerly (where `0.0 or d`
is `d`), a parameter that may hold a container (an empty one is falsy), one annotated as a dict.
"""

from __future__ import annotations

from jaxfix.transforms import Options, check_source, fix_source

TRACED = """\
import jax


@jax.jit
def scale(x, factor=None):
    factor = factor or 2.0
    return x * factor


scale(jax.numpy.ones(2), 3.0)
"""


def _codes(text: str) -> list[str]:
    return [f.code for f in check_source(text, Options())]


def test_one_finding_and_the_is_none_rewrite() -> None:
    assert _codes(TRACED) == ["JAX309"]
    assert "factor = 2.0 if factor is None else factor" in fix_source(TRACED, Options()).text


def test_a_function_also_run_eagerly_is_not_rewritten() -> None:
    eager = TRACED + "scale(jax.numpy.ones(2), 0.0)\nprint(jax.jit(scale).__name__)\n"
    eager = eager.replace("@jax.jit\n", "")
    assert "is None" not in fix_source(eager, Options()).text


def test_a_parameter_that_may_be_a_container_is_not_rewritten() -> None:
    container = TRACED.replace("scale(jax.numpy.ones(2), 3.0)", "scale(jax.numpy.ones(2), (1.0, 2.0))")
    assert "is None" not in fix_source(container, Options()).text


def test_an_optional_dict_annotation_is_not_a_number() -> None:
    annotated = TRACED.replace("factor=None", "factor: Optional[dict] = None").replace(
        "import jax\n", "from typing import Optional\n\nimport jax\n"
    ).replace("scale(jax.numpy.ones(2), 3.0)", "scale(jax.numpy.ones(2), make())")
    assert "is None" not in fix_source(annotated, Options()).text


def test_the_right_operand_is_still_a_use_of_its_own() -> None:
    """`base or factor` takes the truth of `base`, not of `factor`: factor's default plays no part."""
    right = TRACED.replace("factor = factor or 2.0", "factor = 2.0 or factor")
    assert "is None" not in fix_source(right, Options()).text
