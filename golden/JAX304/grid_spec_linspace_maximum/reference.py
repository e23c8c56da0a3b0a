# Hand fix for jax-ml/jax#5208: do the arithmetic on the static floats in Python
# (max/abs instead of jnp.maximum/jnp.abs) and decide how a fractional count is
# turned into a number of points: here rounded up, so dt is never exceeded.
import math

import jax
import jax.numpy as jnp
from functools import partial


@jax.jit
def grid1():
    print('re-compiling ...')
    t0, tf, num_steps = 0., 1., 10
    ts = jnp.linspace(t0, tf, num_steps + 1)
    return ts


@partial(jax.jit, static_argnums=(0,))
def grid3(grid_spec):
    print('re-compiling ...')
    t0, tf, dt = grid_spec
    num_steps = math.ceil(max(abs((tf - t0)/dt), 1))
    ts = jnp.linspace(t0, tf, num_steps + 1)
    return ts


print(grid1().round(4))
print(grid3((0., 1., 1e-1)).round(4))
print(grid3((0., 1., 0.3)).round(4))
