# Cut down from jax-ml/jax#2323.
import jax
import jax.numpy as jnp
from jax import lax


def packed_step_sums(packed_input_data, batch_sizes):
    rows = jnp.arange(packed_input_data.shape[0])

    def body_fun(i, val):
        sums, input_offset = val
        batch_size = batch_sizes[i]
        in_batch = (rows >= input_offset) & (rows < input_offset + batch_size)
        batch = jnp.where(in_batch[:, None], packed_input_data, 0.0)
        sums = sums.at[i].set(jnp.sum(batch))
        input_offset += batch_size
        return sums, input_offset

    init = (jnp.zeros(batch_sizes.shape[0]), 0)
    sums, _ = lax.fori_loop(0, batch_sizes.shape[0], body_fun, init)
    return sums


packed_input_data = jnp.arange(18.0).reshape(9, 2)
batch_sizes = jnp.array([4, 3, 2])
print(packed_step_sums(packed_input_data, batch_sizes).tolist())
