# Sum the entries of x selected by a boolean mask, via the indices returned by
# jnp.nonzero, inside a jitted function.  Under jit the number of indices must
# be static, so nonzero gets an explicit size (the maximum possible, len(mask))
# and padded slots point one past the end, where gathering fills with 0.
import jax.numpy as jnp
from jax import jit


@jit
def masked_total(x, mask):
    n = mask.shape[0]
    idx, = jnp.nonzero(mask, size=n, fill_value=n)
    return x.at[idx].get(mode="fill", fill_value=0.0).sum()


x = jnp.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
mask = jnp.array([0, 1, 1, 0, 0, 1])
print(float(masked_total(x, mask)))
