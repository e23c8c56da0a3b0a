import jax.numpy as jnp
from jax import jit


class Scaler:
    def __init__(self, factors, mul):
        self.factors = tuple(factors)
        self.mul = mul

    @jit(static_argnums=0)
    def calc(self, y):
        if self.mul:
            return jnp.asarray(self.factors) * y
        return y

    def __hash__(self):
        return hash((self.factors, self.mul))

    def __eq__(self, other):
        return isinstance(other, Scaler) and (self.factors, self.mul) == (other.factors, other.mul)


s = Scaler([1.0, 2.0, 3.0], True)
print(s.calc(3.0).tolist())
