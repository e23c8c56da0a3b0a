# herculens' light profiles (commit 8175191) with a Python test on one parameter: the dicts hold
# only floats, but `model` branches on `kw['amp'] > 0` in Python, which needs the value concrete.
# Traced, it would fail there: the list is frozen, and it stays static.
from functools import partial

import jax
import jax.numpy as jnp
from frozendict import frozendict


def sersic(r, amp, R_sersic):
    return amp * jnp.exp(-r / R_sersic)


@partial(jax.jit, static_argnums=(1,))
def model(r, kwargs_light):
    flux = jnp.zeros_like(r)
    for kw in kwargs_light:
        if kw['amp'] > 0:
            flux = flux + sersic(r, **kw)
    return flux


r = jnp.linspace(0.1, 1.0, 4)
light = (frozendict({'amp': 3.0, 'R_sersic': 0.5}), frozendict({'amp': -1.0, 'R_sersic': 0.2}))
print([round(float(v), 4) for v in model(r, light)])
