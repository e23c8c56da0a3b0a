# Cut down from jax-ml/jax#2323.
import jax
import jax.numpy as jnp
from jax import lax
from jax.lax import dynamic_slice_in_dim


def packed_step_sums(packed_input_data, batch_sizes):
    def body_fun(i, val):
        sums, input_offset = val
        batch_size = batch_sizes[i]
        # batch = packed_input_data[input_offset:input_offset+batch_size]
        batch = dynamic_slice_in_dim(packed_input_data, input_offset, batch_size)
        sums = sums.at[i].set(jnp.sum(batch))
        input_offset += batch_size
        return sums, input_offset

    init = (jnp.zeros(batch_sizes.shape[0]), 0)
    sums, _ = lax.fori_loop(0, batch_sizes.shape[0], body_fun, init)
    return sums


packed_input_data = jnp.arange(18.0).reshape(9, 2)
batch_sizes = jnp.array([4, 3, 2])
print(packed_step_sums(packed_input_data, batch_sizes).tolist())
