"""Hashing linen Modules whose fields hold containers: a module of the user's, flax's `Sequential`
and `nnx.bridge.ToLinen`, each built with a list or a dict, then with the frozen form
(tuple, `frozendict`, flax's `FrozenDict`); a static jit argument hashes it.

Run: cd docs/flax-linen-cases && JAX_PLATFORMS=cpu python container_fields.py
"""
import sys
from pathlib import Path

import jax.numpy as jnp
from flax import linen as nn
from flax import nnx
from flax.core import FrozenDict
from frozendict import frozendict

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from probe import probe  # noqa: E402


class Scale(nn.Module):
    cfg: dict

    @nn.compact
    def __call__(self, x):
        return x * self.cfg["a"]


def to_linen(kwargs):
    return nnx.bridge.ToLinen(nnx.Linear, args=(2, 2), kwargs=kwargs)


probe("own module, dict field", lambda: hash(Scale(cfg={"a": 2.0})) and "hashes")
probe("own module, frozendict field", lambda: hash(Scale(cfg=frozendict({"a": 2.0}))) and "hashes")
probe("Sequential, list of layers", lambda: hash(nn.Sequential([nn.Dense(2), nn.relu])) and "hashes")
probe("Sequential, tuple of layers", lambda: hash(nn.Sequential((nn.Dense(2), nn.relu))) and "hashes")
probe("ToLinen, kwargs a dict", lambda: hash(to_linen({"use_bias": False})) and "hashes")
probe("ToLinen, kwargs a frozendict", lambda: hash(to_linen(frozendict({"use_bias": False}))) and "hashes")
probe("ToLinen, kwargs a FrozenDict", lambda: hash(to_linen(FrozenDict({"use_bias": False}))) and "hashes")
probe("Sequential(tuple) runs", lambda: nn.Sequential((nn.Dense(1), nn.relu)).init_with_output(
    __import__("jax").random.PRNGKey(0), jnp.ones((1, 2)))[0].shape)
