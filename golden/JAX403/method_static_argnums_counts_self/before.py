# Cut down from jax-ml/jax#17158 (non-hashable error "when I use a class member
# function, while there is no problem when I use a general function").
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def f(x, neg):
  return -x if neg else x


class Test:
  @partial(jax.jit, static_argnums=(1,))
  def f(self, x, neg):
    return -x if neg else x


arr = jnp.array([1,2])
print(f(arr, True))
t = Test()
result = t.f(arr, True)
print(result)
