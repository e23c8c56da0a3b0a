import jax
import jax.numpy as jnp

ORDER = 4


@jax.jit
def smooth(x):
    with jax.ensure_compile_time_eval():
        weights = jnp.hanning(ORDER + 2)[1:-1]
        width = ORDER + 2
    if width > 3:  # a Python int: the test is a Python bool
        weights = weights / weights.sum()
    return jnp.convolve(x, weights, mode="same")


print(smooth(jnp.arange(6.0)))
