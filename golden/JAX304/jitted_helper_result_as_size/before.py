# Cut down from jax-ml/jax#35090: a static int goes through a jitted helper before
# reaching jnp.arange inside another jitted function.
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(0,))
def add1(i):
    return i+1


@functools.partial(jax.jit, static_argnums=(0,))
def my_arange(k):
    return jnp.arange(add1(k))


print(my_arange(5).tolist())
