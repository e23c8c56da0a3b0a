# Look-alike of dynalang#10 that works: the space read from a dict parameter stores a Python int,
# which a static slot hashes. (Following `spaces[key]` to the dict every call passes once crashed
# the analysis on the parameter.)
from functools import partial

import jax
import jax.numpy as jnp


class Space:
    def __init__(self, n):
        self.n = n


@partial(jax.jit, static_argnums=(1,))
def one_hot(value, depth):
    return jax.nn.one_hot(value, depth)


def preprocess(spaces, key, value):
    space = spaces[key]
    return one_hot(value, space.n)


print(preprocess({"action": Space(4)}, "action", jnp.array([1, 3])).tolist())
