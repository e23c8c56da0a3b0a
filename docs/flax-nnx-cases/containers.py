"""Flax 0.12 nnx: which containers an nnx.Module attribute may hold, and when it fails.

Run: cd docs/flax-nnx-cases && JAX_PLATFORMS=cpu python containers.py
"""
import sys
from pathlib import Path

import flax
import jax.numpy as jnp
from flax import nnx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from probe import probe  # noqa: E402

print("flax", flax.__version__)


def make(kind):
    class M(nnx.Module):
        def __init__(self, rngs):
            if kind == "list of Linear":
                self.blocks = [nnx.Linear(2, 2, rngs=rngs) for _ in range(2)]
            elif kind == "empty list, Linear appended":
                self.blocks = []
                for _ in range(2):
                    self.blocks.append(nnx.Linear(2, 2, rngs=rngs))
            elif kind == "nnx.List of Linear":
                self.blocks = nnx.List([nnx.Linear(2, 2, rngs=rngs) for _ in range(2)])
            elif kind == "nnx.List, Linear appended":
                self.blocks = nnx.List([])
                for _ in range(2):
                    self.blocks.append(nnx.Linear(2, 2, rngs=rngs))
            elif kind == "tuple of Linear":
                self.blocks = tuple(nnx.Linear(2, 2, rngs=rngs) for _ in range(2))
            elif kind == "dict of Linear":
                self.blocks = {"a": nnx.Linear(2, 2, rngs=rngs), "b": nnx.Linear(2, 2, rngs=rngs)}
            elif kind == "nnx.Dict of Linear":
                self.blocks = nnx.Dict({"a": nnx.Linear(2, 2, rngs=rngs), "b": nnx.Linear(2, 2, rngs=rngs)})
            elif kind == "list of ints":
                self.blocks = [1, 2]
            elif kind == "list of arrays":
                self.blocks = [jnp.ones(2), jnp.zeros(2)]
            elif kind == "nnx.data(list of Linear)":
                self.blocks = nnx.data([nnx.Linear(2, 2, rngs=rngs) for _ in range(2)])

        def __call__(self, x):
            if isinstance(self.blocks, (list, tuple, nnx.List)) and self.blocks and not isinstance(self.blocks[0], int):
                for b in self.blocks:
                    x = b(x) if callable(b) else x + b
            elif isinstance(self.blocks, (dict, nnx.Dict)):
                for k in sorted(self.blocks):
                    x = self.blocks[k](x)
            return x

    return M


for kind in ["list of Linear", "empty list, Linear appended", "nnx.List of Linear", "nnx.List, Linear appended",
             "tuple of Linear", "dict of Linear", "nnx.Dict of Linear", "list of ints", "list of arrays",
             "nnx.data(list of Linear)"]:
    M = make(kind)
    probe(f"{kind}: construct", lambda: type(M(nnx.Rngs(0))).__name__)
    probe(f"{kind}: nnx.jit", lambda: nnx.jit(lambda m, x: m(x))(M(nnx.Rngs(0)), jnp.ones(2)).shape)
    probe(f"{kind}: nnx.split", lambda: type(nnx.split(M(nnx.Rngs(0)))[1]).__name__)
    probe(f"{kind}: eager call", lambda: M(nnx.Rngs(0))(jnp.ones(2)).shape)


class Appended(nnx.Module):
    def __init__(self, rngs):
        self.blocks = nnx.data([])
        for _ in range(2):
            self.blocks.append(nnx.Linear(2, 2, rngs=rngs))
        self.table = nnx.data({})
        self.table["a"] = nnx.Linear(2, 2, rngs=rngs)


probe("nnx.data([]) then append, nnx.data({}) then store: types", lambda: (type(Appended(nnx.Rngs(0)).blocks).__name__, type(Appended(nnx.Rngs(0)).table).__name__))
probe("nnx.data([]) then append: nnx.split", lambda: type(nnx.split(Appended(nnx.Rngs(0)))[1]).__name__)
probe("nnx.List is a list", lambda: isinstance(nnx.List([1]), list))
