# A look-alike of jax-ml/jax#35090 that works: the jitted helper's result is only
# used as an array inside the outer jit, and the helper is also called eagerly,
# where its jit is what compiles it.
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(0,))
def scale(k, x):
    return x * (k + 1)


@functools.partial(jax.jit, static_argnums=(0,))
def total(k, x):
    return jnp.sum(scale(k, x))


print(total(3, jnp.arange(4.0)), scale(2, jnp.ones(2)))
