# From jax-ml/jax#7826 ("Consider checking that static fields of dynamic arguments are
# hashable"): a flax dataclass with a NumPy array in a `pytree_node=False` field; a
# second, equal model passed to the same jitted function fails the cache lookup.
from jax import jit
from flax.struct import dataclass, field
import numpy as np


@dataclass
class Model():
    c: np.ndarray


@jit
def f(model):
    return 1.0


m = Model(np.ones(10))
n = Model(np.ones(10))

print(f(m))
print(f(n))
