import math
from functools import partial

import jax
import jax.numpy as jnp


class CMA_ES:
    def __init__(self, num_dims, popsize):
        self.num_dims, self.popsize = num_dims, popsize

    @property
    def default_params(self):
        weights = [math.log((self.popsize + 1) / 2) - math.log(i + 1) for i in range(self.popsize)]
        mu_eff = sum(weights[: self.popsize // 2]) ** 2 / sum(w * w for w in weights[: self.popsize // 2])
        c_1 = 2 / ((self.num_dims + 1.3) ** 2 + mu_eff)
        return min(1 - c_1, 0.5), jnp.asarray(weights)


@partial(jax.jit, static_argnums=(1,))
def step(x, strategy):
    c_mu, weights = strategy.default_params
    return (1 - c_mu) * x + c_mu * weights.sum()


print(round(float(step(1.0, CMA_ES(2, 10))), 5))
