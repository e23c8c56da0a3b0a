# Cut down from jax-ml/jax#34543 ("Add jax.tree.static()"): the MyStruct example
# from the PR, passed to a jitted function that branches on the static field.
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass
class MyStruct:
  x: jax.Array
  y: jax.Array
  op: str = jax.tree.static() # marked as static field.


@jax.jit
def apply(s):
  print("tracing", s.op)
  if s.op == 'add':
    return s.x + s.y
  elif s.op == 'mul':
    return s.x * s.y
  else:
    raise ValueError(s.op)


x = jnp.ones(3)
y = jnp.arange(3.0)
print(jax.tree.leaves(MyStruct(x, y, 'add')))
print(apply(MyStruct(x, y, 'add')).tolist())
print(apply(MyStruct(2 * x, y, 'add')).tolist())
print(apply(MyStruct(2 * x, y, 'mul')).tolist())
