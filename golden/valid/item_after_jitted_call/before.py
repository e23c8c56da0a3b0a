# Look-alike of jax#8962 that works: the jitted estimator returns arrays, and
# `.item()` turns them into Python numbers after the call, outside the trace.
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Summary(NamedTuple):
    mean: float
    spread: float


@jax.jit
def estimate(key):
    draws = jax.random.normal(key, (256,)) * 2.0 + 1.0
    return jnp.mean(draws), jnp.std(draws) / jnp.sqrt(draws.size)


mean, spread = estimate(jax.random.PRNGKey(0))
result = Summary(mean.item(), spread.item())
print(round(result.mean, 4), round(result.spread, 4))
