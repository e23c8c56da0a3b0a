# A jitted method with a static parameter, called from a jitted method with a traced value.
from functools import partial

import jax
import jax.numpy as jnp


class Model:
    @partial(jax.jit, static_argnums=(0, 2))
    def layer(self, x, width):
        return jnp.tile(x, width)

    @partial(jax.jit, static_argnums=(0, 2))
    def forward(self, x, width):
        return self.layer(x, width).sum()


print(Model().forward(jnp.ones(2), 3))
