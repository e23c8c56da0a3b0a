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
print(jax.lax.cond(True, functools.partial(pad_to, n=5), functools.partial(fill_to, n=5), x))
print(jax.lax.cond(False, pad_to, fill_to, x, 4))
