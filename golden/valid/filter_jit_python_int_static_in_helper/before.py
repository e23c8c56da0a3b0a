import equinox as eqx
import jax.numpy as jnp
import numpy as np


def chunked_sum(values, chunk):
    total = jnp.zeros(values.shape[1:])
    for start in range(0, values.shape[0], chunk):
        total = total + values[start:start + chunk].sum(axis=0)
    return total


@eqx.filter_jit
def normalise(values, chunk, scale=2.0):
    # filter_jit traces the array and keeps the Python int and float static
    return chunked_sum(values, chunk) / scale


values = jnp.asarray(np.arange(12.0).reshape(6, 2))
print(normalise(values, 4).tolist())
print(normalise(values, 2, scale=3.0).tolist())
