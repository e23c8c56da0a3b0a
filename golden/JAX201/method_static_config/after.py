# A jitted method whose instance and config are both static; the call goes through self.
from functools import partial

import jax
import jax.numpy as jnp
from frozendict import frozendict


class Scaler:
    def __init__(self, offset):
        self.offset = offset

    @partial(jax.jit, static_argnums=(0, 2))
    def apply(self, x, config):
        return x * config["gain"] + self.offset

    def run(self, x):
        return self.apply(x, frozendict({"gain": 3}))


print([float(v) for v in Scaler(1.0).run(jnp.array([1.0, 2.0]))])
