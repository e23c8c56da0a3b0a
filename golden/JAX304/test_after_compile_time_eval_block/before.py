import jax
import jax.numpy as jnp

ORDER = 4


@jax.jit
def smooth(x):
    with jax.ensure_compile_time_eval():
        weights = jnp.hanning(ORDER + 2)[1:-1]
        total = weights.sum()
    if total > 1.5:  # the window is wide enough to normalise
        weights = weights / total
    return jnp.convolve(x, weights, mode="same")


print(smooth(jnp.arange(6.0)))
