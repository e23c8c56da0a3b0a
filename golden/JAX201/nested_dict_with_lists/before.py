# A nested config (jax-behaviour.md 2e): dicts inside, a list of widths, a tuple.
from functools import partial

import jax
import jax.numpy as jnp

MODEL = {"opt": {"lr": 0.1, "betas": (0.9, 0.99)}, "layers": [4, 3], "name": "mlp"}


@partial(jax.jit, static_argnums=1)
def forward(x, model):
    for width in model["layers"]:
        x = jnp.tanh(x[:width] * model["opt"]["lr"] + model["opt"]["betas"][0])
    return x.sum() + len(model["name"])


print(round(float(forward(jnp.arange(6.0), MODEL)), 4))
