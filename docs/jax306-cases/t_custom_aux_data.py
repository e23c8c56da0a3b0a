"""A class registered with its own tree_flatten: what jit does with the aux_data it returns.
Each row jits the identity on two equal instances built with the value shown in aux_data."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.tree_util import register_pytree_node_class


def box_class():
    """A fresh class per row: jit's cache then holds no earlier tree of it to compare with."""

    @register_pytree_node_class
    class Box:
        def __init__(self, meta, leaf):
            self.meta = meta
            self.leaf = leaf

        def tree_flatten(self):
            return (self.leaf,), (self.meta,)

        @classmethod
        def tree_unflatten(cls, aux_data, children):
            return cls(aux_data[0], children[0])

    return Box


def run(make_meta):
    identity = jax.jit(lambda box: box)
    Box = box_class()
    results = []
    for _ in range(2):
        try:
            identity(Box(make_meta(), jnp.ones(2)))
            results.append("runs")
        except Exception as error:  # noqa: BLE001 - the row prints which error
            results.append(type(error).__name__)
    return results


ROWS = {
    "a Python int `3`": lambda: 3,
    "a tuple `(1, 2)`": lambda: (1, 2),
    "a jax array `jnp.array([1, 2])`": lambda: jnp.array([1, 2]),
    "a NumPy array `np.array([1, 2])`": lambda: np.array([1, 2]),
    "a one-element array `jnp.array([1.5])`": lambda: jnp.array([1.5]),
    "a jax scalar `jnp.float32(1.5)`": lambda: jnp.float32(1.5),
    "the same jax array object each time": lambda shared=jnp.array([1, 2]): shared,
    "a raw key `jax.random.PRNGKey(0)` (two uint32)": lambda: jax.random.PRNGKey(0),
    "a typed key `jax.random.key(0)` (a scalar)": lambda: jax.random.key(0),
}
print("| aux_data holds | first call | second call, an equal instance |")
print("|---|---|---|")
for name, make in ROWS.items():
    first, second = run(make)
    print(f"| {name} | {first} | {second} |")
