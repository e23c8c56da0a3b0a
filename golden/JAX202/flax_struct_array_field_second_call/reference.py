# From jax-ml/jax#24204 ("ValueError when re-compiling function with a multi-dimensional
# array as a static field"): a flax.struct dataclass with a `pytree_node=False` field
# holding a jax.Array, re-instantiated in a loop and passed to a jitted step.
import jax
import numpy as np
from flax import struct


@struct.dataclass
class Foo:
    scale: jax.Array
    bar: jax.Array = struct.field(pytree_node=True)  # a leaf: traced, compared by shape


def step(_params):
    return _params.scale * _params.bar


jit_step = jax.jit(step)
for i in range(2):
    print(f"i: {i}")
    params = Foo(scale=jax.numpy.float32(i + 1), bar=jax.numpy.arange(4))
    print(np.asarray(jit_step(params), dtype=np.float64).round(4).tolist())
