import jax.numpy as jnp
from jax import jit
from jax import tree_util


class CustomClass:
    def __init__(self, x: jnp.ndarray, mul: bool):
        self.x = x
        self.mul = mul

    @jit
    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

    def _tree_flatten(self):
        children = (self.x,)
        aux_data = {'mul': self.mul}
        return (children, aux_data)

    @classmethod
    def _tree_unflatten(cls, aux_data, children):
        return cls(*children, **aux_data)


tree_util.register_pytree_node(CustomClass,
                               CustomClass._tree_flatten,
                               CustomClass._tree_unflatten)


c = CustomClass(jnp.array([1.0, 2.0, 3.0]), True)
print(c.calc(3.0).tolist())

c.mul = False
print(c.calc(3.0).tolist())
