from functools import partial

import jax
import jax.numpy as jnp


class Grid:
    SPACING = 0.5

    @classmethod
    @partial(jax.jit, static_argnums=(0, 1))
    def points(cls, n):
        return jnp.arange(n) * cls.SPACING

    @staticmethod
    @jax.jit
    def centre(x):
        return x - x.mean()


print(Grid.points(4).tolist(), Grid.centre(jnp.arange(3.0)).tolist())
