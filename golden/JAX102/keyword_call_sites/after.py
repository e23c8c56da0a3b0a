# Callers pass the parameter by keyword; the jit already has static_argnames.
from functools import partial

import jax
import jax.numpy as jnp


def ramp(size, scale):
    return jnp.arange(size) * scale


def flat(size, scale):
    return jnp.full((size,), scale)


@partial(jax.jit, static_argnames=("kind", "size"))
def make(scale, size, kind):
    return jax.lax.cond(kind == "ramp", partial(ramp, size), partial(flat, size), scale)


print(make(0.5, size=4, kind="ramp"))
print(make(2.0, kind="flat", size=3))
