# Cut down from https://github.com/jax-ml/jax/issues/28659
# A custom pytree keeps a NumPy array in its aux_data (treated as static
# metadata by jit), while x is the dynamic child.
import dataclasses

import jax
import jax.numpy as jnp
import jax.tree_util
import numpy as np


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass
class HasArray:
    x: object
    y: np.ndarray

    def tree_flatten(self):
        return (self.x, self.y), ()

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        (x,) = children[:1]
        (y,) = (children[1],)
        return cls(x, y)


@jax.jit
def f(x: HasArray):
    return x.x + sum(x.y)


def test_bug():
    N = 100
    out = []
    for n in range(N):
        r = f(HasArray(x=jnp.array([1] * 3) * n, y=np.array([1, 2, 3])))
        out.append(int(r.sum()))
    return out


print(test_bug()[-3:])
