# def f, then f = jax.jit(f, static_argnums=...): calls made later see the jitted f.
import jax
import jax.numpy as jnp
from functools import partial


def upper(k, m):
    return jnp.triu(m, k)


def lower(k, m):
    return jnp.tril(m, k)


upper = jax.jit(upper, static_argnums=0)
lower = jax.jit(lower, static_argnums=(0,))


def band(use_upper, m):
    return jax.lax.cond(use_upper, partial(upper, 1), partial(lower, 1), m)


m = jnp.arange(9.0).reshape(3, 3)
print(band(True, m))
print(band(False, m))
