# Hand fix for jax-ml/jax#204: the output shape depends on pad_to_length, so it
# must be a static argument of the jitted copy.
import numpy as onp
import jax.numpy as np
from jax import jit, lax


def dynamic_update_slice_test(first_row, pad_to_length):
  width = first_row.shape[0]
  empty_array = lax.full((pad_to_length, width), 0, first_row.dtype)
  print(empty_array.shape)
  return lax.dynamic_update_slice(empty_array, np.reshape(first_row, (1, width)), start_indices=[0, 0])


print(dynamic_update_slice_test(onp.array([1,2]),4))
print(jit(dynamic_update_slice_test, static_argnames="pad_to_length")(onp.array([1,2]), pad_to_length=4))
