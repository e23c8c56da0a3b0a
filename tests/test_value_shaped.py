"""JAX304 on functions whose result's shape depends on their argument's values (``jnp.unique``,
``nonzero``, one-argument ``where``): a traced parameter handed to one without ``size=`` is
reported; the working forms are not. Each on the fast path and the whole analysis, each program
run to show it works or fails as the verdict says."""

from __future__ import annotations

import textwrap

import pytest

from jaxfix.transforms import Options, check

from .helpers import ProgramFailed, run_in_process

HEAD = "from functools import partial\n\nimport jax\nimport jax.numpy as jnp\n\n"


def jax304(src: str) -> list[int]:
    both = [[f.line for f in check(src, Options(), narrow=n).findings if f.code == "JAX304"] for n in (True, False)]
    assert both[0] == both[1], "the fast path and the whole analysis disagree"
    return both[1]


@pytest.mark.parametrize(
    "body",
    [
        "@jax.jit\ndef f(x):\n    return jnp.unique(x)\n\nRESULT = f(jnp.array([1, 1, 2]))\n",
        "@jax.jit\ndef f(mask):\n    return jnp.where(mask)[0]\n\nRESULT = f(jnp.array([True, False]))\n",
        "@jax.jit\ndef f(x):\n    return jnp.nonzero(x > 0)[0]\n\nRESULT = f(jnp.array([1.0, -1.0]))\n",
        # through value_and_grad, which hands an undifferentiated argument on as it is
        "def loss(w, labels):\n    return (w * jnp.unique(labels).size).sum()\n\n"
        "@jax.jit\ndef step(w, labels):\n    return jax.value_and_grad(loss)(w, labels)\n\n"
        "RESULT = step(jnp.ones(2), jnp.array([0, 1, 1]))\n",
    ],
)
def test_a_traced_argument_to_a_value_shaped_function_is_reported(body: str) -> None:
    src = HEAD + body
    assert len(jax304(src)) == 1
    with pytest.raises(ProgramFailed):
        run_in_process(src)


@pytest.mark.parametrize(
    "body",
    [
        "@jax.jit\ndef f(x):\n    return jnp.unique(x, size=3, fill_value=0)\n\nRESULT = f(jnp.array([1, 1, 2]))\n",
        "@jax.jit\ndef f(c, a, b):\n    return jnp.where(c, a, b)\n\nRESULT = f(jnp.array([True]), jnp.ones(1), jnp.zeros(1))\n",
        "def f(x):\n    return jnp.unique(x)\n\nRESULT = f(jnp.array([1, 1, 2]))\n",
        # NumPy on a closed-over constant: concrete under the trace
        "import numpy as np\nLABELS = np.array([0, 1, 1])\n\n@jax.jit\ndef f(x):\n    return x * np.unique(LABELS).size\n\n"
        "RESULT = f(jnp.ones(1))\n",
    ],
)
def test_working_forms_get_nothing(body: str) -> None:
    src = HEAD + textwrap.dedent(body)
    assert jax304(src) == []
    run_in_process(src)
