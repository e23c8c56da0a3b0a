import jax.numpy as jnp
from jax import jit
from functools import partial


class CustomClass:

    def __init__(self, mul):
        self.mul = mul

    @partial(jit, static_argnames=("self",))
    def calc(self, x):
        return x * self.mul


c = CustomClass(2)
print(int(c.calc(jnp.int32(3))))

c = CustomClass(3)
print(int(c.calc(jnp.int32(3))))
