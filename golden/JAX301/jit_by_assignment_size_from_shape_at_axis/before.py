import jax
import jax.numpy as jnp
import numpy as np
from jax import Array
from jax.typing import ArrayLike


def czt(x: ArrayLike, m: int, a: complex, w: complex, axis=-1) -> Array:
    """Chirp Z-transform (Bluestein) of a signal along one dimension."""
    # compute modulation terms
    n = x.shape[axis]
    n_czt = m + n - 1
    k = jnp.arange(n_czt)
    wk2 = w ** (k**2 / 2)
    Awk2 = a ** -k[:n] * wk2[:n]
    Fwk2 = jnp.fft.fft(1 / jnp.hstack((wk2[n - 1 : 0 : -1], wk2[:m])), n_czt)
    wk2 = wk2[:m]

    # perform CZT
    x = jnp.moveaxis(x, axis, -1)
    y = jnp.fft.ifft(jnp.fft.fft(x * Awk2, n_czt, axis=-1) * Fwk2, axis=-1)
    y = y[..., n - 1 : n + m - 1] * wk2
    y = jnp.moveaxis(y, -1, axis)
    return y


x = jnp.asarray(np.sin(np.linspace(0.0, 3.0, 8)))
m = 8
w = jnp.exp(-2j * jnp.pi / m)
a = jnp.complex64(1.0)

czt_jit = jax.jit(czt)
y = czt_jit(x, m, a, w)
print(np.round(np.abs(np.asarray(y)), 3))
