# Cut down from a Q&A report (openillumi.com/?p=43923): a jitted row function with a
# static iteration count, vmapped through a partial that binds its values by position.
from functools import partial

import jax.numpy as jnp
from jax import jit, vmap


@partial(jit, static_argnums=(2,))
def map_row(z, alpha, T):
    acc = z
    for _ in range(T):
        acc = jnp.tanh(alpha * acc + 0.1)
    return acc.sum()


alpha = 0.5
T = 3
axis = 0
input = jnp.arange(6.0).reshape(3, 2)
out = vmap(lambda z: map_row(z, alpha, T), axis)(input)
print([round(float(v), 4) for v in out])
