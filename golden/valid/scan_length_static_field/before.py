# chex#104's working half: the scan length is a static field of the pytree dataclass, so it
# stays a Python int under jit (flax.struct.dataclass stands in for chex.dataclass).
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
