# Cut down from jax-ml/jax#5208 ("Unexpected JIT error for operations on static
# arguments"): the number of grid points is computed with jnp.maximum/jnp.abs
# from a static grid_spec tuple, then handed to jnp.linspace.
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
    num_steps = jnp.maximum(jnp.abs((tf - t0)/dt), 1)
    ts = jnp.linspace(t0, tf, num_steps + 1)
    return ts


print(grid1().round(4))
print(grid3((0., 1., 1e-1)).round(4))
print(grid3((0., 1., 0.3)).round(4))
