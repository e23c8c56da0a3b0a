"""JAX201's facts about attribute bags: argparse.Namespace and types.SimpleNamespace as static
arguments, and the namedtuple of their fields that replaces them.

Run: cd docs/jax201-cases && JAX_PLATFORMS=cpu python n_namespaces.py
"""
import argparse
import sys
import types
from collections import namedtuple
from functools import partial
from pathlib import Path

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from probe import probe  # noqa: E402

traces = []


@partial(jax.jit, static_argnames=("opts",))
def scale(x, opts):
    traces.append(1)
    return x * opts.scale


def frozen(ns):
    return namedtuple("Namespace", vars(ns))(**vars(ns))


x = jnp.ones(2)
parsed = argparse.ArgumentParser()
parsed.add_argument("--scale", type=float, default=2.0)
args = parsed.parse_args([])
probe("hash(argparse.Namespace(scale=2.0))", lambda: hash(argparse.Namespace(scale=2.0)))
probe("hash(types.SimpleNamespace(scale=2.0))", lambda: hash(types.SimpleNamespace(scale=2.0)))
probe("scale(x, opts=parser.parse_args([]))", lambda: scale(x, opts=args))
probe("scale(x, opts=types.SimpleNamespace(scale=2.0))", lambda: scale(x, opts=types.SimpleNamespace(scale=2.0)))
probe("scale(x, opts=frozen(args))", lambda: scale(x, opts=frozen(args)).tolist())
traces.clear()
probe(
    "frozen(args) built twice (two namedtuple classes): equal, same hash, traces",
    lambda: (frozen(args) == frozen(args), hash(frozen(args)) == hash(frozen(args)),
             [scale(x, opts=frozen(args)) for _ in range(3)] and len(traces)),
)
probe("frozen(argparse.Namespace(sizes=[1, 2])) as static", lambda: scale(x, opts=frozen(argparse.Namespace(scale=2.0, sizes=[1, 2]))))
probe("namedtuple of a field named _hidden", lambda: frozen(argparse.Namespace(_hidden=1)))
probe("frozen(args) repr", lambda: repr(frozen(args)))
probe("repr(args)", lambda: repr(args))
