# Cut down from jax-ml/jax#2065 (How to branch efficiently under jit
# compilation?): even and odd steps dispatch, through jitted aliases, from a
# step function whose index is static; the Python loop "would be replaced by
# jax.fori_loop in real code", which is done here.
import functools

import jax
import jax.numpy as jnp


def do_even_computations(x):
  return x * 2.0


def do_odd_computations(x):
  return x + 1.0


do_even_computations_jit = jax.jit(do_even_computations)
do_odd_computations_jit = jax.jit(do_odd_computations)


@functools.partial(jax.jit, static_argnums=(0,))
def my_func(i, x):
  if i % 2 == 0:
    return do_even_computations_jit(x)
  else:
    return do_odd_computations_jit(x)


N = 4
print(jax.lax.fori_loop(0, N, my_func, jnp.ones(2)))
