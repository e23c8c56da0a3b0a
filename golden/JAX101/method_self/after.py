# Jitted methods (self static) used as branches through self.
from functools import partial

import jax
import jax.numpy as jnp


class Tiler:
    def __init__(self, scale):
        self.scale = scale

    def __hash__(self):
        return hash(self.scale)

    def __eq__(self, other):
        return isinstance(other, Tiler) and other.scale == self.scale

    @partial(jax.jit, static_argnums=(0, 1))
    def grow(self, reps, x):
        return jnp.tile(x, reps) * self.scale

    @partial(jax.jit, static_argnums=(0, 1))
    def flat(self, reps, x):
        return jnp.zeros(reps * x.shape[0])

    def apply(self, reps, x, flag):
        return jax.lax.cond(flag, partial(self.grow, reps), partial(self.flat, reps), x)


t = Tiler(2.0)
print(t.apply(2, jnp.array([1.0, 3.0]), True))
print(t.apply(3, jnp.array([1.0, 3.0]), False))
