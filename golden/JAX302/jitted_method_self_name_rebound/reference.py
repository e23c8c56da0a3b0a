from functools import partial

import jax.numpy as jnp
from jax import jit


class CustomClass:

    def __init__(self, mul):
        self.mul = mul

    @partial(jit, static_argnums=0)
    def calc(self, x):
        return x * self.mul

    def _tree_key(self):
        return (self.mul,)

    def __hash__(self):
        return hash(self._tree_key())

    def __eq__(self, other):
        return isinstance(other, CustomClass) and self._tree_key() == other._tree_key()


c = CustomClass(2)
print(int(c.calc(jnp.int32(3))))

c = CustomClass(3)
print(int(c.calc(jnp.int32(3))))
