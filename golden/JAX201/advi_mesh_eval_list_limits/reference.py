# Hand fix for jax-ml/jax#7561: static arguments must be hashable, so the limits
# are tuples (np.linspace(*x_limits) reads them the same way).
from functools import partial

import jax.numpy as np
import jax.scipy.stats.norm as norm
from jax import jit, vmap


@partial(jit, static_argnums=(0, 1, 2, 4))
def _mesh_eval(func, x_limits, y_limits, params, num_ticks):
    x = np.linspace(*x_limits, num=num_ticks)
    y = np.linspace(*y_limits, num=num_ticks)
    X, Y = np.meshgrid(x, y)
    xy_vec = np.stack([X.ravel(), Y.ravel()]).T
    zs = vmap(func, in_axes=(0, None))(xy_vec, params)
    return X, Y, zs.reshape(X.shape)


def funnel_log_density(params):
    return norm.logpdf(params[0], 0, np.exp(params[1])) + norm.logpdf(params[1], 0, 1.35)


target_dist = lambda x, _: np.exp(funnel_log_density(x))
X, Y, Z = _mesh_eval(target_dist, (-2, 2), (-4, 2), 1, 51)
print(X.shape, round(float(Z.sum()), 3))
