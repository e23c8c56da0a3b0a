# Look-alike of dynalang#10 whose space holds a float: `int(space.high)` would truncate a value
# that is not an integer, so the array in the static slot is reported, not converted.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


class Space:
    def __init__(self, dtype, shape=(), low=0, high=None):
        self.dtype = np.dtype(dtype)
        self.shape = tuple(shape)
        self.low = np.array(low, dtype)
        self.high = np.array(high, dtype)
        self.discrete = np.issubdtype(self.dtype, np.integer)


@partial(jax.jit, static_argnums=(1,))
def _one_hot(value, depth):
    return jax.nn.one_hot(value, depth)


class Agent:
    def __init__(self, act_space):
        self.act_space = act_space

    def preprocess(self, obs):
        result = {}
        for key, value in obs.items():
            space = self.act_space[key]
            if True:
                value = _one_hot(value, space.high)
            result[key] = value
        return result


agent = Agent({"action": Space(np.float32, (), 0.0, 4.0)})
out = agent.preprocess({"action": jnp.array([0, 3, 1])})
print(out["action"].tolist())
