"""A jitted function's parameter that jit traces, used where Python needs it, and the fix: make it static.

Each row: the same function with the parameter traced, then with it static
(the fix JAX302 writes), called with the kinds of values callers pass.
"""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # docs/probe.py, shared by the case folders
from probe import probe  # noqa: E402


def linspace_body(x, n):
    return x * jnp.linspace(0.0, 1.0, n).sum()


probe("linspace num traced: jit(f)(x, 8)", lambda: jax.jit(linspace_body)(1.0, 8))
probe("linspace num static: jit(f, static_argnums=1)(x, 8)", lambda: jax.jit(linspace_body, static_argnums=1)(1.0, 8))


def zeros_body(n):
    return jnp.zeros((n, 2)).shape


probe("shape traced: jit(f)(3)", lambda: jax.jit(zeros_body)(3))
probe("shape static: jit(f, static_argnums=0)(3)", lambda: jax.jit(zeros_body, static_argnums=0)(3))


def branch_body(x, flag):
    return x + 1 if flag else x - 1


probe("python if traced: jit(f)(x, True)", lambda: jax.jit(branch_body)(1.0, True))
probe("python if static: jit(f, static_argnames='flag')(x, True)", lambda: jax.jit(branch_body, static_argnames="flag")(1.0, True))
probe("python if static, default by keyword omitted", lambda: jax.jit(lambda x, flag=True: branch_body(x, flag), static_argnames="flag")(1.0))


def calls_fn(x, fn):
    return fn(x)


def double(v):
    return 2 * v


probe("function traced: jit(f)(x, double)", lambda: jax.jit(calls_fn)(1.0, double))
probe("function static: jit(f, static_argnums=1)(x, double)", lambda: jax.jit(calls_fn, static_argnums=1)(1.0, double))
probe("lambda static: jit(f, static_argnums=1)(x, lambda v: v + 1)", lambda: jax.jit(calls_fn, static_argnums=1)(1.0, lambda v: v + 1))


class Model:
    def __init__(self, width):
        self.width = width

    def apply(self, x):
        return x * self.width


def uses_model(x, model):
    return model.apply(x)


probe("plain object traced: jit(f)(x, Model(3))", lambda: jax.jit(uses_model)(1.0, Model(3)))
probe("plain object static (hashed by identity)", lambda: jax.jit(uses_model, static_argnums=1)(1.0, Model(3)))


@dataclasses.dataclass
class Config:
    width: int


@dataclasses.dataclass(frozen=True)
class FrozenConfig:
    width: int


probe("non-frozen dataclass static (eq=True sets __hash__ = None)", lambda: jax.jit(uses_model, static_argnums=1)(1.0, Config(3)))
probe("frozen dataclass static", lambda: jax.jit(lambda x, c: x * c.width, static_argnums=1)(1.0, FrozenConfig(3)))


class Comparable:
    def __init__(self, width):
        self.width = width

    def __eq__(self, other):
        return isinstance(other, Comparable) and other.width == self.width


probe("class defining __eq__ only, static (no __hash__)", lambda: jax.jit(lambda x, c: x * c.width, static_argnums=1)(1.0, Comparable(3)))


def takes_name(x, mode):
    return x + 1 if mode == "up" else x - 1


probe("string traced: jit(f)(x, 'up')", lambda: jax.jit(takes_name)(1.0, "up"))
probe("string static: jit(f, static_argnums=1)(x, 'up')", lambda: jax.jit(takes_name, static_argnums=1)(1.0, "up"))

compiles = []


def counted(x, n):
    compiles.append(n)
    return x * n


g = jax.jit(counted, static_argnums=1)
probe("static int: traces per distinct value", lambda: [g(1.0, 2), g(1.0, 2), g(1.0, 3), len(compiles)][-1])
probe("random.normal shape traced", lambda: jax.jit(lambda k, n: jax.random.normal(k, (n,)))(jax.random.PRNGKey(0), 3))
probe("random.normal shape static", lambda: jax.jit(lambda k, n: jax.random.normal(k, (n,)).shape, static_argnums=1)(jax.random.PRNGKey(0), 3))
probe("dynamic_slice size traced", lambda: jax.jit(lambda x, n: jax.lax.dynamic_slice(x, (0,), (n,)))(jnp.arange(4.0), 2))
probe("dynamic_slice size static", lambda: jax.jit(lambda x, n: jax.lax.dynamic_slice(x, (0,), (n,)), static_argnums=1)(jnp.arange(4.0), 2))
probe("reshape traced", lambda: jax.jit(lambda x, n: x.reshape(n, -1))(jnp.arange(4.0), 2))
probe("reshape static", lambda: jax.jit(lambda x, n: x.reshape(n, -1).shape, static_argnums=1)(jnp.arange(4.0), 2))
