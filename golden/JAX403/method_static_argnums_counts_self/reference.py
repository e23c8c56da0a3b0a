# Hand fix of jax-ml/jax#17158: in a method, argument 0 is self; mark self and
# neg static by name.
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def f(x, neg):
  return -x if neg else x


class Test:
  @partial(jax.jit, static_argnames=("self", "neg"))
  def f(self, x, neg):
    return -x if neg else x


arr = jnp.array([1,2])
print(f(arr, True))
t = Test()
result = t.f(arr, True)
print(result)
