import jax
import jax.numpy as jnp


def moving_average(signal, window):
    kernel = jnp.ones(window) / window
    return jnp.convolve(signal, kernel, mode="valid")


signals = jnp.arange(24.0).reshape(3, 8) ** 0.5
window = 3
windows = window * jnp.ones(signals.shape[0], dtype=int)
smoothed = jax.vmap(moving_average, in_axes=(0, None))(signals, window)
print(smoothed.shape, jnp.round(smoothed.sum(), 4))
