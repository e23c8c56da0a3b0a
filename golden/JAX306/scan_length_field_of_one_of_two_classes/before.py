# Adapted from the example in google-deepmind/chex issue #104 (chex.dataclass -> flax.struct.dataclass).
from jax import jit
from jax.lax import scan
from flax import struct


def f(carry, _):
  return carry + 1.0, None


@jit
def do_scan(c):
  final, _ = scan(f, c.x, None, c.y)
  return final


@struct.dataclass
class C:
  x: float
  y: int = struct.field(pytree_node=False)


print(do_scan(C(1.0, 10)))  # works


@struct.dataclass
class D:
  x: float
  y: int


print(do_scan(D(x=1.0, y=10)))  # fails
