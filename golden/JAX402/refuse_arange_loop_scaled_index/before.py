# Refused: the loop variable also scales an array (`i * 0.5`); a Python int computes that in
# float64 where the int32 tracer computes in float32, so `range` is offered, not written.
import jax
import jax.numpy as jnp

WIDTHS = (1.0, 2.0, 4.0)


@jax.jit
def weighted(x):
    total = jnp.zeros_like(x)
    for i in jnp.arange(3):
        total = total + WIDTHS[i] * x * (i * 0.5)
    return total


print(weighted(jnp.arange(4.0)).tolist())
