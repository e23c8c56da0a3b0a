"""JAX201's facts about instances whose fields hold a slice or a list, and JAX304's about Python's
min() of a tracer and about running a static helper at trace time.

Run: cd docs/jax201-cases && JAX_PLATFORMS=cpu python f_instance_fields.py
"""
import sys
from functools import partial
from pathlib import Path

import equinox as eqx
import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from probe import probe  # noqa: E402


class Renderer(eqx.Module):
    channel_map: object = eqx.field(static=True)

    def __call__(self, model):
        index = self.channel_map if isinstance(self.channel_map, slice) else slice(*self.channel_map)
        return model[index]


@partial(jax.jit, static_argnames=("renderer",))
def likelihood(model, renderer):
    return renderer(model).sum()


@eqx.filter_jit
def filtered(model, renderer):
    return renderer(model).sum()


model = jnp.arange(10.0)
print(f"python {sys.version_info.major}.{sys.version_info.minor}")
probe("F1 hash(slice(1, 4))", lambda: hash(slice(1, 4)))
probe("F1 jax.jit static: Renderer(slice(1, 4))", lambda: likelihood(model, Renderer(slice(1, 4))))
probe("F1 jax.jit static: Renderer((1, 4)) read as slice(*t)", lambda: likelihood(model, Renderer((1, 4))))
probe("F1 eqx.filter_jit: Renderer(slice(1, 4))", lambda: filtered(model, Renderer(slice(1, 4))))
probe("F1 jax.jit static: Renderer([1, 4])", lambda: likelihood(model, Renderer([1, 4])))


@jax.jit
def python_min(x):
    return min(jnp.sum(x), 2.0)


@jax.jit
def jnp_minimum(x):
    return jnp.minimum(jnp.sum(x), 2.0)


class Strategy:
    def __init__(self, popsize):
        self.popsize = popsize

    @property
    def params(self):
        weights = jnp.log(self.popsize + 1.0) - jnp.log(jnp.arange(1, self.popsize + 1))
        return min(jnp.sum(weights), 2.0) * weights


@partial(jax.jit, static_argnums=1)
def traced_use(x, strategy):
    return x * strategy.params.sum()


@partial(jax.jit, static_argnums=1)
def eager_use(x, strategy):
    with jax.ensure_compile_time_eval():
        params = strategy.params
    return x * params.sum()


probe("F2 jit: min(jnp.sum(x), 2.0)", lambda: python_min(jnp.ones(3)))
probe("F2 jit: jnp.minimum(jnp.sum(x), 2.0)", lambda: jnp_minimum(jnp.ones(3)))
probe("F3 jit, static strategy: strategy.params", lambda: traced_use(1.0, Strategy(6)))
probe("F3 jit, static strategy, in ensure_compile_time_eval", lambda: eager_use(1.0, Strategy(6)))
probe("F3 no jit: 1.0 * Strategy(6).params.sum()", lambda: 1.0 * Strategy(6).params.sum())
