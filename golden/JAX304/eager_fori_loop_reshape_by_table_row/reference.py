import jax
import jax.numpy as jnp
import numpy as np

vector = jnp.arange(2 ** 5, dtype=jnp.float32)


def f(idx, vec):
    shape = shape_list[idx]
    return vec.reshape(shape)


shape_list = ((2, 2, 1, 2, 4, ),
              (1, 2, 2, 2, 4, ),
              (4, 2, 1, 2, 2, ))
for i in range(len(shape_list)):
    vector = f(i, vector)
print(vector.shape, float(vector.sum()))
