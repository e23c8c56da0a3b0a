import functools

import jax
import jax.numpy as jnp
from frozendict import frozendict


@functools.partial(jax.jit, static_argnums=(1,))
def scaled_sum(x, model_kwargs):
    total = jnp.zeros(())
    for _ in range(model_kwargs["n_terms"]):
        total = total + model_kwargs["scale"] * jnp.sum(x)
    return total


model_kwargs = {}
model_kwargs.update({"n_terms": 3, "scale": 0.5})
model_kwargs["scale"] = 2.0
print(scaled_sum(jnp.arange(4.0), frozendict(model_kwargs)))
