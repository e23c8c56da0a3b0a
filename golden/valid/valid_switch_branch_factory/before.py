# Valid look-alike cut down from jax-ml/jax#12385 (Problem mixing checkify.check
# and jax.lax.switch), without the checkify part: a branch table built by a
# factory; each branch closes over its Python int i and uses it as a value.
import jax
import jax.numpy as jnp


def make_branch(i):
  def branch():
    result = jnp.full((1,), i)
    return result * (jnp.sum(result) > 0)
  return branch


@jax.jit
def pick(index):
  return jax.lax.switch(index, [make_branch(i) for i in range(3)])


for index in range(3):
  print(pick(jnp.full((), index)))
