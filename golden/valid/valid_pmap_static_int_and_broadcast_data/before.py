# Looks like BCD-Nets#1 (data broadcast by pmap), but what static_broadcasted_argnums lists is
# the number of inner steps, a Python int: hashable, so pmap keys its cache with it. The data
# is broadcast by in_axes=None and traced.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as onp


@partial(jax.pmap, axis_name="i", in_axes=(0, None, None), static_broadcasted_argnums=(2,))
def fit(w, Xs, n_inner):
    for _ in range(n_inner):
        w = w - 0.1 * jnp.mean(Xs @ w)
    return jax.lax.pmean(w, axis_name="i")


Xs = onp.random.RandomState(0).randn(8, 3).astype(onp.float32)
w = jnp.ones((jax.local_device_count(), 3))
print(onp.round(onp.asarray(fit(w, Xs, 3)[0], dtype=onp.float64), 4).tolist())
