from jax import jit as jjit
import jax.numpy as jnp
import numpy as np
from jax import ensure_compile_time_eval

vals = np.random.randn(50, 100)


def pad_last_dim(array, pad_size):
    ndim = jnp.ndim(array)
    with ensure_compile_time_eval():
        npad = jnp.zeros((ndim, 2), dtype=jnp.int32)
        axis = ndim - 1
        npad = npad.at[axis, 1].set(pad_size)
    return jnp.pad(array, npad, 'constant', constant_values=0)


print(pad_last_dim(vals, 1).shape)  # All good
print(jjit(pad_last_dim, static_argnums=(1,))(vals, 1).shape)
