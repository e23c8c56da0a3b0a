# Branch lists built in a Python loop: the bound value must be captured per iteration (1k late binding).
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("n",))
def shifted(x, n, y):
    return x + n * y


@partial(jax.jit, static_argnames=("n",))
def scaled(x, n, y):
    return x * n - y


branches = []
for n in (1, 2, 3):
    x = jnp.ones(2)
    y = jnp.full(2, 0.5)
    branches.append(jax.lax.switch(n % 2, [lambda x, y, n=n: shifted(x, n, y), lambda x, y, n=n: scaled(x, n, y)], x, y))
print(jnp.stack(branches))
