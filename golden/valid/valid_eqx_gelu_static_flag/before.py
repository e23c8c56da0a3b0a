import jax
import jax.numpy as jnp
from jax import lax
from equinox import Module, static_field


class GELU(Module):
    approximate: bool = static_field()

    def __init__(self, approximate: bool = False):
        super().__init__()
        self.approximate = approximate

    def __call__(self, x, *, key=None):
        if self.approximate:
            sqrt_2_over_pi = jnp.sqrt(2 / jnp.pi).astype(x.dtype)
            cdf = 0.5 * (1.0 + jnp.tanh(sqrt_2_over_pi * (x + 0.044715 * (x ** 3))))
            return x * cdf
        else:
            return jnp.array(x * (lax.erf(x / jnp.sqrt(2)) + 1) / 2, dtype=x.dtype)


@jax.jit
def apply(act, x):
    return act(x)


x = jnp.linspace(-3.0, 3.0, 7)
print(apply(GELU(), x).round(4).tolist())
print(apply(GELU(approximate=True), x).round(4).tolist())
