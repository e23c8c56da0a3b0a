import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node, register_pytree_node_class


@register_pytree_node_class
class Scaled:
    def __init__(self, values, power):
        self.values = values
        self.power = power

    def tree_flatten(self):
        aux = (self.power,)
        return (self.values,), aux

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(children[0], aux_data[0])


class Shifted:
    def __init__(self, values, shift):
        self.values = values
        self.shift = shift

    def flatten(self):
        return (self.values,), (self.shift,)


register_pytree_node(Shifted, Shifted.flatten, lambda aux, children: Shifted(children[0], aux[0]))


@jax.jit
def apply(s, t):
    return jnp.sum(s.values ** s.power) + jnp.sum(t.values + t.shift)


for _ in range(2):
    print(float(apply(Scaled(jnp.arange(3.0), 2), Shifted(jnp.ones(2), jnp.float32(1.5)))))
