# A look-alike of interpax#77 that works: the user function is wrapped by eqx.filter_jit,
# which keeps every non-array leaf (the `method` string) static, so the str never
# reaches jit as a leaf.
from functools import partial
from typing import Union

import equinox as eqx
import jax
import jax.numpy as jnp
from jax import jit
import numpy as np


def approx_df(x, f, method, axis=0):
    """Finite-difference knot derivatives (the 'cubic' method in interpax)."""
    if method == "linear":
        return jnp.zeros_like(f)
    dx = jnp.diff(x)
    df = jnp.diff(f) / dx
    return jnp.concatenate([df[:1], 0.5 * (df[1:] + df[:-1]), df[-1:]])


@partial(jit, static_argnames="method")
def interp1d(xq, x, f, method="cubic", derivative=0, extrap=False, period=None, **kwargs):
    fx = kwargs.get("fx")
    i = jnp.clip(jnp.searchsorted(x, xq, side="right"), 1, len(x) - 1)
    x0, x1 = x[i - 1], x[i]
    dx = x1 - x0
    t = (xq - x0) / dx
    if method == "linear":
        fq = f[i - 1] * (1 - t) + f[i] * t
    elif method == "cubic":
        h00 = 2 * t**3 - 3 * t**2 + 1
        h10 = t**3 - 2 * t**2 + t
        h01 = -2 * t**3 + 3 * t**2
        h11 = t**3 - t**2
        fq = h00 * f[i - 1] + h10 * dx * fx[i - 1] + h01 * f[i] + h11 * dx * fx[i]
    else:
        raise ValueError(f"unknown method {method}")
    extrap = jnp.asarray(extrap)
    outside = (xq < x[0]) | (xq > x[-1])
    return jnp.where(outside & ~extrap.astype(bool), jnp.nan, fq)


class Interpolator1D(eqx.Module):
    """Convenience class for representing a 1D interpolated function."""

    x: jax.Array
    f: jax.Array
    derivs: dict
    method: str
    extrap: Union[bool, float, tuple]
    period: Union[None, float]
    axis: int

    def __init__(self, x, f, method="cubic", extrap=False, period=None, **kwargs):
        x, f = map(jnp.asarray, (x, f))
        axis = kwargs.get("axis", 0)
        self.x = x
        self.f = f
        self.axis = axis
        self.method = method
        self.extrap = extrap
        self.period = period
        self.derivs = {"fx": approx_df(x, f, method, axis)}

    def __call__(self, xq, dx: int = 0):
        return interp1d(xq, self.x, self.f, self.method, dx, self.extrap,
                        self.period, **self.derivs)


x = jnp.linspace(0, 2 * np.pi, 12)
interp = Interpolator1D(x, jnp.sin(x), method="cubic")


@eqx.filter_jit
def evaluate(interpolator, xq):
    return interpolator(xq)


xq = jnp.array([0.3, 1.1, 2.5, 4.0, 5.9])
print(np.round(np.asarray(evaluate(interp, xq), dtype=np.float64), 4).tolist())
