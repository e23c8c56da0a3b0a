import jax.numpy as jnp
from jax import jit


class CustomClass:

    def __init__(self, mul):
        self.mul = mul

    @jit
    def calc(self, x):
        return x * self.mul


c = CustomClass(2)
print(int(c.calc(jnp.int32(3))))

c = CustomClass(3)
print(int(c.calc(jnp.int32(3))))
