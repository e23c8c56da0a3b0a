# jax#14718: a sampler state keeps its PRNG key in the pytree's aux_data. The
# first jitted step compiles; the next one, with a fresh key, compares the old
# and new aux_data with `==` and a two-element key has no single truth value.
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class SamplerState:
    def __init__(self, position, rng):
        self.position = position
        self.rng = rng

    def tree_flatten(self):
        return (self.position, self.rng), None  # the key is a leaf, traced like the position

    @classmethod
    def tree_unflatten(cls, aux, leaves):
        return cls(leaves[0], leaves[1])


@jax.jit
def step(state):
    noise = jax.random.normal(state.rng, state.position.shape)
    return state.position + 0.0 * noise


state = SamplerState(jnp.arange(3.0), jax.random.PRNGKey(0))
print(step(state))
state = SamplerState(step(state) + 1.0, jax.random.PRNGKey(1))
print(step(state))
