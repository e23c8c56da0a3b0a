# Cut down from jax-ml/jax#7222 (IndexError from abstracted values inside fori_loop):
# the loop index of a fori_loop body is a tracer, so NumPy-style slicing with it fails.
import jax
import jax.numpy as jnp
from jax import lax
import numpy as np

WINDOW = 3


def rolling_max(signal):
    n_out = signal.shape[0] - WINDOW + 1
    out = jnp.zeros(n_out)

    def body(i, acc):
        window = lax.dynamic_slice_in_dim(signal, i, WINDOW)          # i is a tracer here
        return acc.at[i].set(window.max())

    return lax.fori_loop(0, n_out, body, out)


signal = jnp.sin(jnp.arange(10.0))
print(np.round(np.asarray(jax.jit(rolling_max)(signal)), 4))
