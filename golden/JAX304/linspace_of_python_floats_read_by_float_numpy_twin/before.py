import math

import jax
import jax.numpy as jnp


def segment_gain(width, length):
    return math.exp(-length / (10.0 * width))


def tapered_gain(signal, w_start=2.0, w_end=1.0, segments=4, length=8.0):
    widths = jnp.linspace(w_start, w_end, segments)
    gain = 1.0
    for k in range(segments):
        gain = gain * segment_gain(float(widths[k]), length / segments)
    return signal * gain


print(jax.jit(tapered_gain)(jnp.ones(2)).round(5).tolist())
