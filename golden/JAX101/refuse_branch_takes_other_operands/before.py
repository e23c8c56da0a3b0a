from functools import partial

import jax
import jax.numpy as jnp


def g(n):
    return jnp.zeros((3,))


@partial(jax.jit, static_argnums=(0,))
def f(n, x):
    return jnp.ones((n,)) * x


y = jax.lax.cond(True, f, g, 3, 1.0)
print(y)
