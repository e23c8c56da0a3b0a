import dataclasses
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.tree_util.register_dataclass, data_fields=["weights"], meta_fields=["parents", "n_steps"])
@dataclasses.dataclass
class Chain:
    weights: jax.Array
    parents: tuple
    n_steps: int


@jax.jit
def rollout(chain, x):
    for step in range(chain.n_steps):
        parent = chain.parents[step]
        x = x * chain.weights[parent] + 1.0
    return x


chain = Chain(weights=jnp.array([0.5, 2.0, -1.0]), parents=(2, 0, 1), n_steps=3)
print(jax.vmap(lambda x: rollout(chain, x))(jnp.arange(3.0)))
