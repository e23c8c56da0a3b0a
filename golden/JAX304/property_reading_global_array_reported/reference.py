from functools import partial

import jax
import jax.numpy as jnp

SCALES = jnp.array([0.5, 1.0, 2.0])


class Strategy:
    def __init__(self, popsize):
        self.popsize = popsize

    @property
    def default_params(self):
        weights = jnp.log(self.popsize + 1) - jnp.log(jnp.arange(1, self.popsize + 1))
        step = min(jnp.sum(weights) * SCALES[0], 2.0)
        return weights * step


@partial(jax.jit, static_argnums=(1,))
def run(x, strategy, params):
    return x * params.sum()


print(round(float(run(1.0, Strategy(6), Strategy(6).default_params)), 4))
