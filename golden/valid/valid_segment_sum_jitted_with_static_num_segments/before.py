# Looks like jax#6350 (jax.ops.segment_sum jitted on its own), but the count is given and static.
import jax
import numpy as np

c = np.array([[1, 2, 3, 4], [4, 3, 2, 1], [5, 6, 7, 8]])
b = np.array([0, 0, 1])

jit_fn = jax.jit(jax.ops.segment_sum, static_argnames="num_segments")
print(jit_fn(c, b, num_segments=2))
