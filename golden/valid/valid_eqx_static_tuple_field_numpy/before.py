# Look-alike from patrick-kidger/equinox#863: a static field holding a tuple of ints (hashable),
# computed with NumPy outside any trace; the module goes through jax.jit twice.
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


class Foo(eqx.Module):
    x: tuple[int, int] = eqx.field(static=True)
    w: jax.Array

    def add_one(self):
        x_as_np = np.asarray(self.x)
        return Foo(tuple(int(v) for v in x_as_np + 1), self.w)


@jax.jit
def total(foo):
    return jnp.sum(foo.w) * foo.x[0]


foo = Foo((3, 2), jnp.ones(2))
print(float(total(foo)), float(total(foo.add_one())))
