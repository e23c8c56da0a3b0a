# Cut down from the Q&A summarised at openillumi.com/?p=112234: an interpolation
# routine stores function values at fitting points; the jitted lookup uses an
# array table indexed by integer grid coordinates instead of a Python dict.
import numpy as np
import jax
import jax.numpy as jnp

fitting_points = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
values = {tuple(p.tolist()): float(p[0] + 2 * p[1]) for p in fitting_points}

# Redesign: dense table indexed by grid coordinates (built once, outside jit).
shape = tuple(fitting_points.max(axis=0) + 1)
table_np = np.zeros(shape, dtype=np.float32)
for key, val in values.items():
    table_np[key] = val
table = jnp.asarray(table_np)


@jax.jit
def bilinear(x):
    lo = jnp.floor(x).astype(jnp.int32)
    t = x - lo
    def f(i, j):
        idx = lo + jnp.array([i, j])
        return table[idx[0], idx[1]]
    return ((1 - t[0]) * (1 - t[1]) * f(0, 0) + t[0] * (1 - t[1]) * f(1, 0)
            + (1 - t[0]) * t[1] * f(0, 1) + t[0] * t[1] * f(1, 1))


print(round(float(bilinear(jnp.array([0.25, 0.5]))), 4))
