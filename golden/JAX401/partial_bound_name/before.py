# A Partial built once, stored in a name, and handed to a jitted step; `import functools` style.
import functools

import jax
import jax.numpy as jnp
from jax.tree_util import Partial


@functools.partial(jax.jit, static_argnames=("k",))
def top_k_sum(k, scores):
    return jnp.sort(scores)[-k:].sum()


@jax.jit
def step(scores, reduce):
    return reduce(scores) * 2


reduce_top3 = Partial(top_k_sum, 3)
print(step(jnp.array([4.0, 1.0, 3.0, 5.0]), reduce_top3))
