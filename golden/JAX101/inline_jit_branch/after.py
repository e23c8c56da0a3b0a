# Branches jitted inline, right in the cond call.
import jax
import jax.numpy as jnp
from functools import partial


def repeat(n, x):
    return jnp.repeat(x, n)


def zeros(n, x):
    return jnp.zeros(n * x.shape[0])


x = jnp.array([1.0, 2.0])
print(jax.lax.cond(True, partial(jax.jit(repeat, static_argnums=0), 2), partial(jax.jit(zeros, static_argnums=0), 2), x))
