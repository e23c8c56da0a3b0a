"""JAX302 on optax's inject_hyperparams (golden JAX302/optax_inject_hyperparams_adafactor runs the
fix): when the table's hyperparameter joins `static_args`, and when the call is left alone."""

from __future__ import annotations

import pytest

from jaxfix.transforms import Options, check_source, fix_source

HEAD = "import jax\nimport jax.numpy as jnp\nimport optax\n\n"
TAIL = "\nstate = jax.jit(opt.init)({'w': jnp.ones((200, 200))})\n"


def test_adafactor_gets_its_int_hyperparameter_in_static_args() -> None:
    source = HEAD + "opt = optax.inject_hyperparams(optax.adafactor)(learning_rate=0.1)\n" + TAIL
    [finding] = check_source(source, Options())
    assert finding.code == "JAX302" and finding.fix is not None
    assert 'optax.inject_hyperparams(optax.adafactor, static_args=("min_dim_size_to_factor",))' in fix_source(source, Options()).text


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("opt = optax.inject_hyperparams(optax.adam)(learning_rate=0.1)\n", "adam's hyperparameters all trace"),
        ("opt = optax.inject_hyperparams(optax.adafactor, static_args=('decay_rate',))(learning_rate=0.1)\n", "its own static_args"),
        (
            "opt = optax.inject_hyperparams(optax.adafactor)(learning_rate=0.1)\n"
            "print(opt.init({'w': jnp.ones(2)}).hyperparams['min_dim_size_to_factor'])\n",
            "read back from the state by name",
        ),
    ],
    ids=["other-optimizer", "static-args-given", "read-back"],
)
def test_left_alone(line: str, why: str) -> None:
    found = [f for f in check_source(HEAD + line + TAIL, Options()) if f.code == "JAX302"]
    assert all(f.fix is None for f in found) and not any("inject_hyperparams" in f.message for f in found), why
