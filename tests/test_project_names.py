"""The pre-filter's first pass: module-level names jitted with static arguments, and who may import them."""

from __future__ import annotations

import pytest

from jaxfix.transforms.project.static_names import import_view, imported_names, module_level_names, search

MODEL = b"""\
import jax
from functools import partial

@partial(jax.jit, static_argnums=0)
def step(n, x): ...

g = jax.jit(f, static_argnames='n')
h = jax.jit(
    f,
    static_argnums=(1,),
)

class Model:
    @partial(jax.jit, static_argnums=1)
    def apply(self, n): ...

@partial(
    jax.jit,
    static_argnames=("n",),
)
# a comment between
@other
def wrapped(n): ...

def jit(fun, static_argnums=None):
    return fun

def unrelated(): ...

def outer():
    @partial(jax.jit, static_argnums=0)
    def inner(n): ...
"""


def test_module_level_names_over_approximate_and_skip_methods() -> None:
    names = module_level_names(MODEL)
    assert {"step", "g", "h", "wrapped"} <= names
    assert not {"apply", "inner", "static_argnums", "jit", "unrelated"} & names


@pytest.mark.parametrize(
    "user",
    [
        b"from .model import step\nstep(1, x)\n",
        b"from pkg.model import (\n    other,\n    step as s,\n)\n",
        b"from pkg import step\n",  # a re-export in pkg/__init__.py
        b"import pkg.model as m\nm.step(1, x)\n",
        b"from pkg import model\nmodel . step(1, x)\n",
        b"import pkg\npkg.model.step(1, x)\n",
        b"x = 1; from pkg.model import g\n",
        b"from pkg.model import *\nstep(1, x)\n",
    ],
)
def test_importers_are_admitted(user: bytes) -> None:
    names = search([("pkg.model", MODEL)])
    assert names.admitted(user)


@pytest.mark.parametrize(
    "user",
    [
        b"step = 3\nprint(step)\n",  # mentions the name, imports nothing
        b"import numpy as np\nstep(1)\n",  # imports something else, calls a local
        b"import os\nos.step\n",  # an attribute on an unrelated module
        b"from other import apply\n",  # a method's name: never imported
        b"import pkg.model as m\nxs = []\nxs.step(1)\n",  # an attribute of something not imported
    ],
)
def test_files_that_cannot_reach_the_names_are_not(user: bytes) -> None:
    names = search([("pkg.model", MODEL)])
    assert names.admitted(user) == ()


@pytest.mark.parametrize(
    "user",
    [
        b"from .model import step\nstep(1, x)\n",
        b"import pkg.model as m\nm.step(1, x)\n",
        b"from pkg import model\nmodel . step(1, x)\n",
        b"from pkg.model import *\nstep(1, x)\n",
        b"from pkg.model import *\nstepping = 1\n",  # a star import admits a name its text holds, even inside a word
        b"from pkg.model import *\n",
        b"import pkg.model as m\nxs = []\nxs.step(1)\n",
        b"step = 3\n",
        b"import os\nos.step\n",
    ],
)
def test_an_import_view_admits_what_the_text_admits(user: bytes) -> None:
    """A warm run asks which modules may import each of many names from one `import_view` per
    module, without its text: the same answers as the text's."""
    names = search([("pkg.model", MODEL)])
    assert names.admitted_view(import_view(user)) == names.admitted(user)


def test_digest_depends_only_on_the_admitted_names() -> None:
    one = search([("pkg.model", MODEL), ("pkg.other", b"@partial(jax.jit, static_argnums=0)\ndef other(n): ...\n")])
    two = search([("pkg.model", MODEL), ("pkg.other", b"@partial(jax.jit, static_argnums=0)\ndef renamed(n): ...\n")])
    user = b"from pkg.model import step\n"
    assert one.admitted(user) == two.admitted(user) == ("step",)
    assert one.digest(one.admitted(user)) == two.digest(two.admitted(user))
    assert one.digest(("step",)) != search([("pkg.moved", MODEL)]).digest(("step",))


@pytest.mark.parametrize(
    "text",
    [
        b'PATTERN = re.compile(r"import (.*)")\n',  # jaxlib's build_wheel.py
        b"# import ...\n",
        b'"""import .model"""\n',
    ],
)
def test_text_that_only_looks_like_an_import_binds_nothing(text: bytes) -> None:
    # It once bound the empty name, which the attribute search then found at every
    # offset without moving on: the pre-filter never returned.
    names = search([("pkg.model", MODEL)])
    user = b"import pkg.model as m\n" + text + b"m.step(1, x)\n"
    assert imported_names(text) == frozenset()
    assert names.admitted(user) == ("step",)
