# Sum the entries of x selected by a boolean mask, via the indices returned by
# jnp.nonzero, inside a jitted function.
import jax.numpy as jnp
from jax import jit


@jit
def masked_total(x, mask):
    idx, = jnp.nonzero(mask)
    return x[idx].sum()


x = jnp.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
mask = jnp.array([0, 1, 1, 0, 0, 1])
print(float(masked_total(x, mask)))
