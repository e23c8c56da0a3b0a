# Cut down from the Q&A summarised at openillumi.com/?p=112234: an interpolation
# routine stores function values at fitting points in a Python dict keyed by
# the points (arrays converted to tuples so they are hashable), then looks the
# values up inside a jitted function.
import numpy as np
import jax
import jax.numpy as jnp

fitting_points = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
values = {tuple(p.tolist()): float(p[0] + 2 * p[1]) for p in fitting_points}


@jax.jit
def bilinear(x):
    lo = jnp.floor(x).astype(jnp.int32)
    t = x - lo
    def f(i, j):
        return values[tuple(lo + jnp.array([i, j]))]
    return ((1 - t[0]) * (1 - t[1]) * f(0, 0) + t[0] * (1 - t[1]) * f(1, 0)
            + (1 - t[0]) * t[1] * f(0, 1) + t[0] * t[1] * f(1, 1))


print(round(float(bilinear(jnp.array([0.25, 0.5]))), 4))
