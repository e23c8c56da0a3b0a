# Look-alike of quantum-rf-pdk#766: the same `if n_turns < 1: raise` check, but n_turns is a
# static argument of the jit, so the check runs on a Python int while tracing.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("n_turns",))
def meander_length(turn_length, n_turns):
    if n_turns < 1:
        raise ValueError(f"n_turns must be >= 1, got {n_turns}")
    offsets = jnp.arange(n_turns)
    return jnp.sum(turn_length + 0.0 * offsets)


print(float(meander_length(200.0, n_turns=5)))
try:
    meander_length(200.0, n_turns=0)
except ValueError as error:
    print("rejected:", error)
