# Look-alike of google-research#1025 that works: the tree of NumPy arrays goes
# to a traced parameter, and only the sizes the code needs are static, as a
# tuple of Python ints taken from the arrays' shapes.
import functools

import jax
import jax.numpy as jnp
import numpy as np


def as_example(item):
    return jax.tree_util.tree_map(np.asarray, item)


@functools.partial(jax.jit, static_argnums=(2,))
def init(rng, example, sizes):
    features, width = sizes
    w = jax.random.normal(rng, (features, width))
    return w.sum() * 0.0 + example["length"].mean()


rs = np.random.RandomState(0)
example = as_example({"tokens": rs.randint(0, 16, size=(2, 3)), "length": np.array([3, 2])})
sizes = (example["tokens"].shape[-1], 4)
print(init(jax.random.PRNGKey(0), example, sizes))
