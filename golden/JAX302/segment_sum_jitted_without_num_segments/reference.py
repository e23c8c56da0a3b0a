import jax
import numpy as np

c = np.array([[1, 2, 3, 4], [4, 3, 2, 1], [5, 6, 7, 8]])
b = np.array([0, 0, 1])
print(jax.ops.segment_sum(c, b))

jit_fn = jax.jit(jax.ops.segment_sum, static_argnums=2)
print(jit_fn(c, b, 2))
