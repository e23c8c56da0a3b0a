# Cut down from jax-ml/jax#7561 ('script "examples/advi.py" throws "ValueError"
# exception'): the plotting helper's jitted core takes the axis limits as static
# arguments; the wrapper mesh_eval forwards them, and main builds them as lists.
from functools import partial

import jax.numpy as np
import jax.scipy.stats.norm as norm
from jax import jit, vmap


@partial(jit, static_argnums=(0, 1, 2, 4))
def _mesh_eval(func, x_limits, y_limits, params, num_ticks):
    # Evaluate func on a 2D grid defined by x_limits and y_limits.
    x = np.linspace(*x_limits, num=num_ticks)
    y = np.linspace(*y_limits, num=num_ticks)
    X, Y = np.meshgrid(x, y)
    xy_vec = np.stack([X.ravel(), Y.ravel()]).T
    zs = vmap(func, in_axes=(0, None))(xy_vec, params)
    return X, Y, zs.reshape(X.shape)


def mesh_eval(func, x_limits, y_limits, params, num_ticks=51):
    return _mesh_eval(func, x_limits, y_limits, params, num_ticks)


def funnel_log_density(params):
    return norm.logpdf(params[0], 0, np.exp(params[1])) + \
           norm.logpdf(params[1], 0, 1.35)


if __name__ == "__main__":
    x_limits = [-2, 2]
    y_limits = [-4, 2]
    target_dist = lambda x, _: np.exp(funnel_log_density(x))
    X, Y, Z = mesh_eval(target_dist, x_limits, y_limits, 1)
    print(X.shape, round(float(Z.sum()), 3))
