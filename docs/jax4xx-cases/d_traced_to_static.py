# JAX404: a jitted helper with a static parameter, called from another jitted
# function with a value computed from that function's traced inputs.
import functools

import jax
import jax.numpy as jnp

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # docs/probe.py, shared by the case folders
from probe import probe  # noqa: E402

x = jnp.arange(3.0)


@functools.partial(jax.jit, static_argnums=1)
def pad(x, n):
    return jnp.concatenate([x, jnp.zeros(n)])


@functools.partial(jax.jit, static_argnums=1)
def shift(x, k):
    return x + k


@jax.jit
def outer_pad(x, n):
    return pad(x, n)


@jax.jit
def outer_pad_plus(x, n):
    return pad(x, n + 1)


@jax.jit
def outer_shape(x):
    return pad(x, x.shape[0])


@jax.jit
def outer_sum(x):
    return shift(x, x.sum())


probe("outer jit passes its traced n", lambda: outer_pad(x, 2))
probe("outer jit passes n + 1", lambda: outer_pad_plus(x, 2))
probe("outer jit passes x.shape[0] (static)", lambda: outer_shape(x))
probe("outer jit passes x.sum() (an array value)", lambda: outer_sum(x))
probe("outer eager (no jit) passes n", lambda: pad(x, 2))

print("-- option 1: make the value static upstream (the outer jit's static_argnums)")
outer_static = jax.jit(outer_pad.__wrapped__, static_argnums=1)
probe("outer static n, called with 2", lambda: outer_static(x, 2))
probe("outer static n, called with jnp.array(2)", lambda: outer_static(x, jnp.array(2)))
outer_plus_static = jax.jit(outer_pad_plus.__wrapped__, static_argnums=1)
probe("outer static n, n + 1", lambda: outer_plus_static(x, 2))

print("-- option 2: make the helper's parameter dynamic (drop it from static_argnums)")
shift_dynamic = jax.jit(shift.__wrapped__)
probe("helper dynamic k, x.sum()", lambda: jax.jit(lambda v: shift_dynamic(v, v.sum()))(x))
probe("eager reference x + x.sum()", lambda: x + x.sum())
pad_dynamic = jax.jit(pad.__wrapped__)
probe("helper dynamic n used as a size", lambda: jax.jit(lambda v, n: pad_dynamic(v, n))(x, 2))

print("-- through vmap and grad instead of an outer jit")
probe("vmap over n into the static slot", lambda: jax.vmap(lambda n: pad(x, n))(jnp.arange(2)))
probe("grad with the static slot differentiated", lambda: jax.grad(lambda k: shift(x, k).sum())(1.0))
probe("vmap(in_axes=(0, None)) over a function calling pad(x, n) with n unmapped", lambda: jax.vmap(lambda r, n: pad(r, n), in_axes=(0, None))(x[:, None], 2))

print("-- a jitted helper's result is a tracer inside another jit (issues 14666, 35090)")


@functools.partial(jax.jit, static_argnums=0)
def add1(i):
    return i + 1


def add1_plain(i):
    return i + 1


probe("jit(static k): jnp.arange(add1(k)), add1 jitted", lambda: jax.jit(lambda k: jnp.arange(add1(k)), static_argnums=0)(5))
probe("jit(static k): jnp.arange(add1_plain(k))", lambda: jax.jit(lambda k: jnp.arange(add1_plain(k)), static_argnums=0)(5))
probe("eager: jnp.arange(add1(5))", lambda: jnp.arange(add1(5)))

print("-- a defaulted parameter of the outer jit that the call does not pass (jax tests/debug_info_test.py)")


def outer_default(x, n=2):
    return pad(x, n)


probe("jit(outer_default)(x): n left to its default", lambda: jax.jit(outer_default)(jnp.arange(3.0)))
probe("jit(outer_default)(x, 2): n passed", lambda: jax.jit(outer_default)(jnp.arange(3.0), 2))
