# Look-alike of jax#14718 that works: the aux_data holds the seed as a Python
# int (hashable, compared with a single bool), and the key is made inside.
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class Walker:
    position: jax.Array
    seed: int


def flatten_walker(w):
    return (w.position,), w.seed


def unflatten_walker(seed, children):
    return Walker(children[0], seed)


jax.tree_util.register_pytree_node(Walker, flatten_walker, unflatten_walker)


@jax.jit
def walk(w):
    key = jax.random.PRNGKey(w.seed)
    return w.position + 0.0 * jax.random.normal(key, w.position.shape)


print(walk(Walker(jnp.zeros(2), 0)))
print(walk(Walker(jnp.ones(2), 1)))
