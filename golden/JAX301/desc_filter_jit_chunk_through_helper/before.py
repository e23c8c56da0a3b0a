import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jax import jit


def _compute_B(pts, src, bs_chunk_size):
    """Sum the field from the source points, bs_chunk_size sources at a time."""
    B = jnp.zeros_like(pts)
    for i in range(0, src.shape[0], bs_chunk_size):
        chunk = src[i:i + bs_chunk_size]
        d = pts[:, None, :] - chunk[None, :, :]
        B = B + jnp.sum(d / (1.0 + jnp.sum(d**2, axis=-1, keepdims=True)) ** 1.5, axis=1)
    return B


@jit
def _odefun(y, src, bs_chunk_size):
    return _compute_B(y, src, bs_chunk_size)


@eqx.filter_jit
def field_line_integrate(y0, src, dt, n_steps, bs_chunk_size=None):
    # filter_jit keeps the Python ints (n_steps, bs_chunk_size) static
    bs_chunk_size = bs_chunk_size or src.shape[0]
    y = y0
    for _ in range(n_steps):
        y = y + dt * _odefun(y, src, bs_chunk_size)
    return y


src = jnp.asarray(np.linspace(-1.0, 1.0, 12).reshape(6, 2))
y0 = jnp.array([[0.5, 0.0], [0.0, 0.7]])
y1 = field_line_integrate(y0, src, 0.05, 4, bs_chunk_size=2)
print(np.round(np.asarray(y1), 4))
