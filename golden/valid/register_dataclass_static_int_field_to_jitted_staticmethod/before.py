# A dataclass registered as a pytree with an int field marked static, and a
# jitted staticmethod that receives the instance (pattern from the report).
import time
import jax
import jax.numpy as jnp
from dataclasses import dataclass, field


@jax.tree_util.register_dataclass
@dataclass(slots=True)
class Shape:
    length: jax.Array
    idx: int = field(default=1, metadata={"static": True})

    @staticmethod
    @jax.jit
    def area(shape: "Shape") -> jax.Array:
        return shape.length * shape.length


def timed_area(s):
    start = time.perf_counter()
    a = s.area(s)
    a.block_until_ready()
    return a, time.perf_counter() - start


if __name__ == "__main__":
    s1 = Shape(jnp.asarray(10.0), 2)
    a1, _ = timed_area(s1)
    a1b, _ = timed_area(s1)
    s2 = Shape(jnp.asarray(3.0), 3)   # new static idx -> recompiles, still correct
    a2, _ = timed_area(s2)
    print(round(float(a1), 4), round(float(a1b), 4), round(float(a2), 4))
