from types import ModuleType

import jax
import jax.numpy as jnp


def pad(
    x,
    pad_width,
    mode: str = "constant",
    *,
    constant_values: bool | int | float | complex = 0,
    xp: ModuleType | None = None,
):
    """Pad the input array (delegates to ``xp.pad`` for numpy-like namespaces)."""
    xp = jnp if xp is None else xp

    if mode != "constant":
        msg = "Only `'constant'` mode is currently supported"
        raise NotImplementedError(msg)

    if isinstance(pad_width, int):
        pad_width = [(pad_width, pad_width)] * x.ndim

    # generic path: allocate the padded array and write x into the middle
    shape = tuple(n + lo + hi for n, (lo, hi) in zip(x.shape, pad_width))
    slices = tuple(slice(lo, lo + n) for n, (lo, _) in zip(x.shape, pad_width))
    padded = xp.full(shape, constant_values, dtype=x.dtype)
    return padded.at[slices].set(x)


x = jnp.arange(6.0).reshape(2, 3)
print(pad(x, [(1, 2), (0, 1)], constant_values=-1.0))

pad = jax.jit(pad, static_argnames="pad_width")
print(pad(x, pad_width=((1, 2), (0, 1)), constant_values=-1.0))
