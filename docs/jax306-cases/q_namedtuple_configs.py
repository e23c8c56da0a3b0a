"""NamedTuple configs under jit: every field is a leaf (no static fields), and the whole tuple can be
static when its fields hash.

Run: cd docs/jax306-cases && JAX_PLATFORMS=cpu python q_namedtuple_configs.py
"""
import sys
from functools import partial
from pathlib import Path
from typing import NamedTuple

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from probe import probe  # noqa: E402


class Config(NamedTuple):
    scale: float
    steps: int = 3


def run(x, config):
    for _ in range(config.steps):
        x = x * config.scale
    return x


x = jnp.ones(2)
probe("jit(run)(x, Config(2.0)): range(config.steps)", lambda: jax.jit(run)(x, Config(2.0)))
probe("jit(run, static_argnames='config')(x, config=Config(2.0))", lambda: jax.jit(run, static_argnames="config")(x, config=Config(2.0)))
probe("jit(run, static_argnums=1)(x, Config(2.0))", lambda: jax.jit(run, static_argnums=1)(x, Config(2.0)))
probe("jit(run, static_argnums=1)(x, Config(jnp.asarray(2.0)))", lambda: jax.jit(run, static_argnums=1)(x, Config(jnp.asarray(2.0))))
probe("hash(Config(2.0)) == hash(Config(2.0))", lambda: hash(Config(2.0)) == hash(Config(2.0)))
probe(
    "fori_loop whose carry grows (concatenate)",
    lambda: jax.lax.fori_loop(0, 3, lambda i, s: jnp.concatenate([s, s[-1:] + 1]), jnp.zeros(1)),
)
