# Cut down from jax-ml/jax#204 ("Error using dynamic_update_slice with jit"): pad
# a 1-d array into the first row of a (pad_to_length, width) array; works
# without jit, and the jitted copy made by assignment fails. (start_indices now
# needs one index per dimension: [0] of the report is [0, 0] here.)
import numpy as onp
import jax.numpy as np
from jax import jit, lax


def dynamic_update_slice_test(first_row, pad_to_length):
  width = first_row.shape[0]
  empty_array = lax.full((pad_to_length,width), 0, first_row.dtype)
  first_row_reshaped = np.reshape(first_row, (1,width))
  print(empty_array.shape)
  return lax.dynamic_update_slice(empty_array, first_row_reshaped, start_indices=[0, 0])


print(dynamic_update_slice_test(onp.array([1,2]),4))

dynamic_update_slice_test_jit = jit(dynamic_update_slice_test, static_argnames=("pad_to_length",))
print(dynamic_update_slice_test_jit(onp.array([1,2]),4))
