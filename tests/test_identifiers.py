"""APIs that take several names refuse one string (issue 17.2: "horizon" became h, o, r, ...)."""

from __future__ import annotations

import libcst as cst
import pytest

from jaxfix.transforms import Options
from jaxfix.transforms.core.identifiers import names
from jaxfix.transforms.edits.static_arguments import StaticEditor
from jaxfix.transforms.semantics.module import ModuleContext


def test_names_refuses_a_lone_string():
    assert names(["horizon", "steps"]) == ("horizon", "steps")
    assert names(n for n in ("a",)) == ("a",)
    with pytest.raises(TypeError, match="single string 'horizon'"):
        names("horizon")


def test_the_static_editor_refuses_a_string_for_its_parameter_names():
    text = "import jax\n\n@jax.jit\ndef f(x, horizon):\n    return x\n"
    ctx = ModuleContext(text, cst.parse_module(text), Options())
    with pytest.raises(TypeError):
        StaticEditor(ctx).add(None, None, None, "horizon", None)  # type: ignore[arg-type]
