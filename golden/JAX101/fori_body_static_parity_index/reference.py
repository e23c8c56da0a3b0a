# Hand fix of jax-ml/jax#2065: the loop index is always traced inside
# fori_loop, so it cannot be static; the parity branch becomes a lax.cond.
import jax
import jax.numpy as jnp


def do_even_computations(x):
  return x * 2.0


def do_odd_computations(x):
  return x + 1.0


do_even_computations_jit = jax.jit(do_even_computations)
do_odd_computations_jit = jax.jit(do_odd_computations)


@jax.jit
def my_func(i, x):
  return jax.lax.cond(i % 2 == 0, do_even_computations_jit, do_odd_computations_jit, x)


N = 4
print(jax.lax.fori_loop(0, N, my_func, jnp.ones(2)))
