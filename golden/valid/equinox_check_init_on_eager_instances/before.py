import equinox as eqx
import jax
import jax.numpy as jnp


class Box(eqx.Module):
    lo: jax.Array = eqx.field(converter=jnp.asarray)
    hi: jax.Array = eqx.field(converter=jnp.asarray)

    def __check_init__(self):
        if (self.lo > self.hi) or (self.hi > 100):
            raise ValueError("bad box")

    def width(self):
        return self.hi - self.lo


@jax.jit
def area(box, scale):
    return box.width() * scale


box = Box(1.0, 3.0)
print(float(area(box, 2.0)))
