# Looks like jax#28659 (a registered dataclass keeping y in its aux_data), but y is a tuple of
# Python ints: hashable, and compared with one bool, so jit finds its compiled code each time.
import dataclasses

import jax
import jax.numpy as jnp
import jax.tree_util


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass
class HasTuple:
    x: object
    y: tuple

    def tree_flatten(self):
        return (self.x,), (self.y,)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        (x,) = children
        (y,) = aux_data
        return cls(x, y)


@jax.jit
def f(x: HasTuple):
    return x.x + sum(x.y)


out = [int(f(HasTuple(x=jnp.array([1] * 3) * n, y=(1, 2, 3))).sum()) for n in range(5)]
print(out[-3:])
