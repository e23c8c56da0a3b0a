import functools

import jax
import jax.numpy as jnp
import numpy as np


@functools.partial(jax.jit, static_argnames=("m",))
def czt(x, m, a, w, axis=-1):
    """Chirp Z-transform with the output length static, as chromatix's fix has it."""
    n = x.shape[axis]
    n_czt = m + n - 1
    k = jnp.arange(n_czt)
    wk2 = w ** (k**2 / 2)
    Awk2 = a ** -k[:n] * wk2[:n]
    Fwk2 = jnp.fft.fft(1 / jnp.hstack((wk2[n - 1 : 0 : -1], wk2[:m])), n_czt)
    x = jnp.moveaxis(x, axis, -1)
    y = jnp.fft.ifft(jnp.fft.fft(x * Awk2, n_czt, axis=-1) * Fwk2, axis=-1)
    return jnp.moveaxis(y[..., n - 1 : n + m - 1] * wk2[:m], -1, axis)


x = jnp.asarray(np.sin(np.linspace(0.0, 3.0, 8)))
print(np.round(np.abs(np.asarray(czt(x, 8, jnp.complex64(1.0), jnp.exp(-2j * jnp.pi / 8)))), 3))
