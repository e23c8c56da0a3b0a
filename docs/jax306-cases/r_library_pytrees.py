"""Facts for flax.struct and equinox pytree classes: which fields jit traces, how each library
declares a field static, and what an array in a static field does.

Run: cd docs/jax306-cases && JAX_PLATFORMS=cpu python r_library_pytrees.py
(needs flax and equinox, which the test extras install).
"""
import dataclasses
import sys
import warnings
from pathlib import Path

import equinox as eqx
import flax
import jax
import jax.numpy as jnp
from flax import struct

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from probe import probe  # noqa: E402

print(f"flax {flax.__version__}, equinox {eqx.__version__}, jax {jax.__version__}")


@struct.dataclass
class FlaxPlain:
    scale: jax.Array
    steps: int = 3


@struct.dataclass
class FlaxStatic:
    scale: jax.Array
    steps: int = struct.field(pytree_node=False, default=3)


class FlaxNode(struct.PyTreeNode):
    scale: jax.Array
    steps: int = 3


class EqxPlain(eqx.Module):
    scale: jax.Array
    steps: int = 3


class EqxStatic(eqx.Module):
    scale: jax.Array
    steps: int = eqx.field(static=True, default=3)


class EqxInit(eqx.Module):
    scale: jax.Array
    steps: int

    def __init__(self, scale, steps):
        self.scale = scale
        self.steps = steps


def sized(c):
    return jnp.zeros((c.steps,)) + c.scale


def looped(x, c):
    for _ in range(c.steps):
        x = x * c.scale
    return x


one = jnp.asarray(1.0)
for cls in (FlaxPlain, FlaxStatic, FlaxNode, EqxPlain, EqxStatic):
    probe(f"jit: jnp.zeros((c.steps,)), {cls.__name__}", lambda cls=cls: jax.jit(sized)(cls(one)).tolist())
    probe(f"jit: range(c.steps), {cls.__name__}", lambda cls=cls: jax.jit(looped)(jnp.ones(2), cls(one)).tolist())
    probe(f"leaves of {cls.__name__}(1.0)", lambda cls=cls: len(jax.tree_util.tree_leaves(cls(one))))
probe("jit: EqxInit(1.0, 3), steps set in __init__", lambda: jax.jit(sized)(EqxInit(one, 3)).tolist())
probe("eqx.filter_jit: EqxPlain (non-array leaves are static)", lambda: eqx.filter_jit(sized)(EqxPlain(one)).tolist())
probe("flax struct is frozen: c.steps = 4", lambda: setattr(FlaxPlain(one), "steps", 4))
probe("eqx module is frozen: c.steps = 4", lambda: setattr(EqxPlain(one), "steps", 4))
probe("flax replace(steps=4) of FlaxStatic", lambda: jax.jit(sized)(FlaxStatic(one).replace(steps=4)).tolist())
probe("eqx.tree_at on a static field", lambda: eqx.tree_at(lambda c: c.steps, EqxStatic(one), 4).steps)


# An array kept in a static field.
@struct.dataclass
class FlaxArrayMeta:
    scale: jax.Array
    bar: jax.Array = struct.field(pytree_node=False)


@struct.dataclass
class FlaxArrayData:
    scale: jax.Array
    bar: jax.Array


def step(p):
    return p.scale * p.bar


def twice(cls, make):
    jitted = jax.jit(step)
    return [jitted(cls(jnp.float32(i + 1), make())).tolist() for i in range(2)]


probe("flax pytree_node=False array, two instances", lambda: twice(FlaxArrayMeta, lambda: jnp.arange(4)))
probe("flax pytree_node=False array, one array object twice", lambda: twice(FlaxArrayMeta, lambda a=jnp.arange(4): a))
probe("flax pytree_node=False one-element array, two instances", lambda: twice(FlaxArrayMeta, lambda: jnp.arange(1)))
probe("flax data field array (the fix), two instances", lambda: twice(FlaxArrayData, lambda: jnp.arange(4)))


class EqxArrayMeta(eqx.Module):
    scale: jax.Array
    bar: jax.Array = eqx.field(static=True)


def eqx_twice():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = twice(EqxArrayMeta, lambda: jnp.arange(4))
    return out, sorted({str(w.category.__name__) for w in caught})


probe("eqx static=True array, two instances", eqx_twice)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class RegArrayMeta:
    scale: jax.Array
    bar: jax.Array = dataclasses.field(metadata=dict(static=True))


probe("register_dataclass static array, two instances", lambda: twice(RegArrayMeta, lambda: jnp.arange(4)))
import numpy as np  # noqa: E402
probe("flax pytree_node=False numpy array, two instances", lambda: twice(FlaxArrayMeta, lambda: np.ones(4)))
