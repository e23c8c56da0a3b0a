# The resolution of jax-ml/jax#5208 (operations on static values must be Python
# or numpy, not jnp, to be constant-folded): the same static grid_spec tuple, the
# count computed with numpy and Python, jnp used only for the traced grid.
import numpy as np
import jax
import jax.numpy as jnp
from functools import partial


@partial(jax.jit, static_argnums=(0,))
def grid3(grid_spec):
    print('re-compiling ...')
    t0, tf, dt = grid_spec
    num_steps = int(np.maximum(np.abs((tf - t0)/dt), 1))
    ts = jnp.linspace(t0, tf, num_steps + 1)
    return jnp.maximum(ts, t0 + dt / 2)


print(grid3((0., 1., 0.25)).round(4))
print(grid3((0., 1., 0.25)).round(4))
