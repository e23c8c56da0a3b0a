import jax.numpy as jnp
from jax import jit


class CustomClass:
    def __init__(self, x: jnp.ndarray, mul: bool):
        self.x = x
        self.mul = mul

    @jit(static_argnums=0)
    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

    def __hash__(self):
        return hash((self.x, self.mul))

    def __eq__(self, other):
        return (
            isinstance(other, CustomClass)
            and (self.x, self.mul) == (other.x, other.mul)
        )


c = CustomClass(jnp.array([1.0, 2.0, 3.0]), True)
print(c.calc(3.0).tolist())

c.mul = False
print(c.calc(3.0).tolist())
