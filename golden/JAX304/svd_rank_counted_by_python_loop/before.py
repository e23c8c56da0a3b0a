# jax#3740: a truncated SVD keeps the singular values above a threshold,
# counted with a Python loop over the traced singular values under jit.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def truncate(m, delta):
    u, s, vt = jnp.linalg.svd(m, full_matrices=False)
    rank = 0
    for x in s:
        if x < delta:
            break
        rank += 1
    return (u[:, :rank] * s[:rank]) @ vt[:rank]


m = jnp.diag(jnp.array([3.0, 1.0, 0.01]))
print(jnp.round(truncate(m, 0.1), 3))
