# jax#8962: Monte Carlo statistics as a NamedTuple of Python numbers, computed
# inside the jitted estimator with `.item()`, which a tracer cannot give.
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Summary(NamedTuple):
    mean: float
    spread: float


def summarize(values):
    mean = jnp.mean(values, keepdims=True)
    spread = jnp.std(values, keepdims=True) / jnp.sqrt(values.size)
    return Summary(mean.item(), spread.item())


@jax.jit
def estimate(key):
    draws = jax.random.normal(key, (256,)) * 2.0 + 1.0
    return summarize(draws)


result = estimate(jax.random.PRNGKey(0))
print(round(float(result.mean), 4), round(float(result.spread), 4))
