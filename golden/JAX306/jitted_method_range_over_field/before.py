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

    @jax.jit
    def apply(self, x):
        for _ in range(self.steps):
            x = x + self.weight * (jnp.roll(x, 1) - x)
        return x


smoother = Smoother(jnp.asarray(0.5))
print(smoother.apply(jnp.arange(4.0)).tolist())
print(Smoother(jnp.asarray(0.25), steps=2).apply(jnp.arange(4.0)).tolist())
