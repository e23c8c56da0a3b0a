import jax
import jax.numpy as jnp


def scaled(signal, gain):
    # the gain is only data: a mapped array of equal gains is fine
    return signal * gain


signals = jnp.arange(12.0).reshape(3, 4)
gains = jnp.full(signals.shape[0], 0.5)
print(jax.vmap(scaled)(signals, gains).sum())
