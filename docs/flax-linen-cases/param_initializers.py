"""What runs a linen module's parameter initializer (`self.param(name, init_fn, *args)`), and how.

flax's `Scope.param` calls `init_fn(rng, *args)` at `init`; at `apply`, where the parameter
exists, it still evaluates `init_fn` under `jax.eval_shape` to check the stored shape
(flax/core/scope.py). So an initializer that needs a concrete value from jnp fails at every
`apply`, jitted or not (flax#1077's Hadamard initializer).

    JAX_PLATFORMS=cpu python docs/flax-linen-cases/param_initializers.py
"""
import os
import sys

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from probe import probe  # noqa: E402


def from_jnp(key, shape):
    n = jnp.log2(shape[0])
    return jnp.ones(shape) * jnp.arange(n).sum()


def from_numpy(key, shape):
    n = int(np.log2(shape[0]))
    return jnp.ones(shape) * jnp.arange(n).sum()


class Jnp(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x * self.param("w", from_jnp, (4,))


class Numpy(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x * self.param("w", from_numpy, (4,))


x, key = jnp.ones(4), jax.random.PRNGKey(0)
probe("eager init, jnp initializer", lambda: Jnp().init(key, x)["params"]["w"])
probe("eager apply, jnp initializer", lambda: Jnp().apply({"params": {"w": jnp.ones(4)}}, x))
probe("jit(init), jnp initializer", lambda: jax.jit(Jnp().init)(key, x)["params"]["w"])
probe("eager apply, numpy initializer", lambda: Numpy().apply({"params": {"w": jnp.ones(4)}}, x))
