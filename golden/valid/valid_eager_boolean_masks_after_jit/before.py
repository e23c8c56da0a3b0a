# From netket's operator/_pauli_strings/base.py (`np.sum(w_arr[idx == i])`): boolean masks used as
# indices on results after the jitted computation, eagerly. A concrete mask has a known size, so
# NumPy and eager JAX both index with it; only a mask traced inside jit/vmap fails.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def weights(x):
    return x**2 - 1.0


w = weights(jnp.arange(6.0))
idx = np.array([0, 1, 0, 1, 2, 2])
w_arr = np.asarray(w)
print([float(np.sum(w_arr[idx == i])) for i in range(3)])
print(w[w > 4].tolist(), w.at[w < 0].set(0).tolist())
