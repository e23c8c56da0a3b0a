# A pytree config whose jitted method loops over one of its own fields.
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Smoother:
    weight: jax.Array
    steps: int = dataclasses.field(default=3)

    def apply(self, x):
        return _apply(self.weight, x, self.steps)


@partial(jax.jit, static_argnums=2)
def _apply(weight, x, steps):
    for _ in range(steps):
        x = x + weight * (jnp.roll(x, 1) - x)
    return x


smoother = Smoother(jnp.asarray(0.5))
print(smoother.apply(jnp.arange(4.0)).tolist())
print(Smoother(jnp.asarray(0.25), steps=2).apply(jnp.arange(4.0)).tolist())
