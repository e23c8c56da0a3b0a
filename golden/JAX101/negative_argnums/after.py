# static_argnums=-1 counts from the end of each call: the value must stay positional (1l).
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=-1)
def pad_to(x, n):
    return jnp.zeros(n).at[: x.shape[0]].set(x)


@functools.partial(jax.jit, static_argnums=-1)
def fill_to(x, n):
    return jnp.full(n, x.sum())


x = jnp.ones(3)
print(jax.lax.cond(True, lambda x: pad_to(x, 5), lambda x: fill_to(x, 5), x))
print(jax.lax.cond(False, lambda x: pad_to(x, 4), lambda x: fill_to(x, 4), x))
