import jax
import jax.numpy as jnp
import numpy as np
import equinox as eqx
from functools import partial


@partial(jax.jit, static_argnames=("params_mask",))
def partition(params, params_mask):
    return eqx.partition(params, filter_spec=params_mask)


params = ((1., 2.), 3.)
params_mask = ((True, False), False)

dynamic, static = partition(params, params_mask)
rounded = lambda t: jax.tree_util.tree_map(lambda x: float(np.round(np.asarray(x), 4)), t)
print(rounded(dynamic))
print(rounded(static))
