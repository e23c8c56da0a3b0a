import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


class registry:
    @staticmethod
    def struct(cls):
        data_cls = dataclasses.dataclass(cls)
        fields = [f.name for f in dataclasses.fields(data_cls)]
        return jax.tree_util.register_dataclass(data_cls, data_fields=fields, meta_fields=[])


@registry.struct
class Config:
    scale: float
    shift: float


class Stats:
    def __init__(self, n):
        self.n = n

    def _moments(self, x):
        return jnp.mean(x), jnp.var(x)

    def summary(self, x):
        mean, var = self._moments(x)
        out = {}
        out["mean"] = float(mean)
        out["var"] = float(var)
        return out


def closest(a, b, p, d):
    if d > 1.0 or d < 0.0:
        if d > 1.0:
            return b
        return a
    return p


def apply(cfg, x):
    return x * cfg.scale + cfg.shift


stats = Stats(4)
x = jnp.arange(4.0)
print(stats.summary(x))  # eager: float() of concrete arrays
print(closest(jnp.zeros(2), jnp.ones(2), jnp.full(2, 0.5), 0.3))  # d is a Python float
print(jax.jit(apply)(Config(scale=jnp.array(2.0), shift=jnp.array(1.0)), x))  # the config traced, not static
print(jax.jit(partial(apply, Config(scale=3.0, shift=0.0)))(x))
