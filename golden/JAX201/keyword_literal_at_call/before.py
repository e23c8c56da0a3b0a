# A dict literal written at the call, passed by keyword to a static parameter.
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="norm")
def normalise(x, *, norm):
    centred = x - x.mean() if norm["center"] else x
    return centred / norm.get("scale", 1.0)


x = jnp.arange(5.0)
print([round(float(v), 3) for v in normalise(x, norm={"center": True, "scale": 2.0})])
print([round(float(v), 3) for v in normalise(x, norm={"center": False})])
