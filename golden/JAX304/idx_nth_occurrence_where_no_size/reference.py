# Cut down from https://github.com/jax-ml/jax/issues/9578
import jax
import jax.numpy as jnp


@jax.jit
def idx_n_th_occurence(operand, occurence, n=0):
    arr = jnp.where(operand == occurence, operand, jnp.nan)
    return jnp.where(arr == arr, size=len(operand))[n]


operand = jnp.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 1.0])
print(idx_n_th_occurence(operand, 1.0).tolist())
