# jit applied inline at the call, the config passed by keyword.
import jax
import jax.numpy as jnp


def clip(x, limits):
    return jnp.clip(x, limits["low"], limits["high"])


values = jnp.array([-2.0, 0.5, 3.0])
print([float(v) for v in jax.jit(clip)(values, limits=dict(low=-1.0, high=1.0))])
