"""Which attributes and methods of a traced value are themselves traced.

A traced parameter is a tracer only when the caller passed an array. When it
passed a pytree (a dataclass registered with ``register_dataclass``, a flax
``struct.dataclass``, an equinox Module, a class registered with
``register_static``), jit traces its leaves and keeps its static fields as the
Python values they were: ``config.num_layers`` may be a plain int in a jitted
function whose ``config`` is not static. Nothing in one module says which, so
only the members of ``jax.Array`` (jax 0.10.2) carry tracedness: an attribute
that is an array, and a method that returns one or needs a concrete value.
"""

from __future__ import annotations

#: ``x.T`` and friends: arrays computed from the array.
ARRAY_ATTRIBUTES = frozenset({"T", "mT", "real", "imag"})

#: Methods of jax.Array whose result is an array (or which need a concrete value: item, tolist).
ARRAY_METHODS = frozenset(
    {
        "all", "any", "argmax", "argmin", "argpartition", "argsort", "astype", "choose", "clip", "compress",
        "conj", "conjugate", "copy", "cumprod", "cumsum", "diagonal", "dot", "flatten", "item", "max", "mean",
        "min", "nonzero", "prod", "ptp", "ravel", "repeat", "reshape", "round", "searchsorted", "sort",
        "squeeze", "std", "sum", "swapaxes", "take", "tolist", "trace", "transpose", "var", "view",
    }
)

#: Packages whose calls `tracedness.is_array` takes to return a jax array (the screen mirrors it).
JAX_ARRAY_MODULES = ("jax.numpy.", "jax.random.", "jax.lax.")
