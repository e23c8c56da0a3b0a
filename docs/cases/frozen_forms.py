"""What the frozen mapping libraries do with the values inside them (docs/frozen-forms.md).

Run with jax, frozendict, immutabledict, flax and ml_collections installed:
    JAX_PLATFORMS=cpu python docs/cases/frozen_forms.py
Each line: a label, then what happened (OK / FAIL with the exception's last line).
"""

import argparse
import functools

import frozendict
import immutabledict
import jax
import jax.numpy as jnp
import numpy as np
from flax.core import FrozenDict, freeze
from ml_collections import FrozenConfigDict


def fn(v):
    return v


def negate(v):
    return -v


class Options:
    def __init__(self):
        self.lr = 0.1


def attempt(label, make):
    try:
        value = make()
    except Exception as error:  # noqa: BLE001 - the point is to show what fails
        print(f"{label}: construct FAIL {type(error).__name__}: {str(error).splitlines()[0][:90]}")
        return None
    try:
        hash(value)
        hashed = "hash OK"
    except Exception as error:  # noqa: BLE001
        hashed = f"hash FAIL {str(error).splitlines()[-1][:60]}"
    print(f"{label}: {hashed}")
    return value


print("jax", jax.__version__, "frozendict", frozendict.__version__, "c_ext", frozendict.c_ext)

print("-- frozendict.deepfreeze: what happens to values that are not containers")
jitted = jax.jit(fn)
for label, value in [
    ("function", fn),
    ("lambda", lambda v: v),
    ("functools.partial", functools.partial(fn)),
    ("jax.jit(fn)", jitted),
    ("jax.nn.relu", jax.nn.relu),
    ("class", Options),
    ("instance with __dict__", Options()),
    ("argparse.Namespace", argparse.Namespace(lr=0.1)),
    ("jnp array", jnp.arange(3)),
]:
    try:
        frozen = frozendict.deepfreeze({"v": value})["v"]
        print(f"deepfreeze {label}: kept={frozen is value} -> {type(frozen).__name__} {frozen!r:.60}")
    except Exception as error:  # noqa: BLE001
        print(f"deepfreeze {label}: FAIL {type(error).__name__}: {str(error)[:70]}")
try:
    frozendict.deepfreeze({"v": np.arange(3)})
except TypeError as error:
    print(f"deepfreeze numpy array: FAIL TypeError: {str(error)[:60]}")
print("deepfreeze({'f': fn}) == deepfreeze({'f': negate}):", frozendict.deepfreeze({"f": fn}) == frozendict.deepfreeze({"f": negate}))

print("-- flax.core.FrozenDict")
attempt("FrozenDict(a=1) keyword constructor", lambda: FrozenDict(a=1))
attempt("dict nested in dict", lambda: FrozenDict({"a": {"b": 1}}))
attempt("dict inside a tuple", lambda: FrozenDict({"a": ({"b": 1},)}))
attempt("list value", lambda: FrozenDict({"a": [1]}))
attempt("set value", lambda: FrozenDict({"a": {1}}))
attempt("freeze(dict nested in dict)", lambda: freeze({"a": {"b": 1}}))
print("FrozenDict == dict:", FrozenDict({"a": 1}) == {"a": 1}, "| order:", list(FrozenDict({"b": 1, "a": 2})))

print("-- ml_collections.FrozenConfigDict")
attempt("FrozenConfigDict(a=1) keyword constructor", lambda: FrozenConfigDict(a=1))
attempt("dict inside a list", lambda: FrozenConfigDict({"a": [{"b": 1}]}))
attempt("int key", lambda: FrozenConfigDict({1: "a"}))
config = attempt("nested list, set, function", lambda: FrozenConfigDict({"a": [[1, 2]], "s": {1}, "f": fn}))
print("inside:", type(config["a"]).__name__, type(config["a"][0]).__name__, type(config["s"]).__name__, "function kept:", config["f"] is fn)
print("FrozenConfigDict == dict:", FrozenConfigDict({"a": 1}) == {"a": 1}, "| order:", list(FrozenConfigDict({"b": 1, "a": 2})))

print("-- immutabledict / frozendict")
attempt("immutabledict(a=1)", lambda: immutabledict.immutabledict(a=1))
attempt("frozendict(a=1)", lambda: frozendict.frozendict(a=1))
print("== dict:", immutabledict.immutabledict(a=1) == {"a": 1}, frozendict.frozendict(a=1) == {"a": 1},
      "| frozendict is a dict subclass:", issubclass(frozendict.frozendict, dict),
      "| order:", list(immutabledict.immutabledict({"b": 1, "a": 2})), list(frozendict.frozendict({"b": 1, "a": 2})))
print("tuple == list:", (64, 64) == [64, 64])
