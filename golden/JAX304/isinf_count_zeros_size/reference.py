# Hand fix for jax-ml/jax#9463: the layout (how many columns each row gets) is
# configuration, decided by which smf entries are inf; compute it from a
# concrete smf outside jit with numpy and jit only the data movement, with the
# layout as a static tuple.
from functools import partial

import numpy as np
import jax
import jax.numpy as jnp
jax.config.update("jax_enable_x64", True)

num_rows = 5
num_cols = 4


@partial(jax.jit, static_argnums=(2,))
def to_columns(par_init, lb, kvals):
    par = jnp.broadcast_to(par_init[:, None], (num_rows, num_cols))
    par0_col = jnp.zeros(kvals[-1])
    lb_col = jnp.zeros(kvals[-1])
    for i in range(num_rows):
        par0_col = par0_col.at[kvals[i]:kvals[i+1]].set(par[i, :kvals[i+1]-kvals[i]])
        lb_col = lb_col.at[kvals[i]:kvals[i+1]].set(lb[i])
    return par0_col, lb_col


smf = np.array([np.inf, 0.1, 0.1, 0.1, 0.1])
kvals = tuple(int(k) for k in np.cumsum(np.insert(np.where(np.isinf(smf), 1, num_cols), 0, 0)))
par_init = jnp.array([1.0, 2.0, 3.0, 4.0, 5.0])
lb = jnp.array([0.1, 0.1, 0.1, 0.1, 0.1])
print(to_columns(par_init, lb, kvals)[0])
