import jax
import jax.numpy as jnp

mask = jnp.array([True, False, True, True, False])
n_active = jnp.count_nonzero(mask)


def masked_leading(values, n):
    keep = jnp.arange(values.shape[0]) < n
    return jnp.where(keep, values * 2.0, 0.0)


print(jax.jit(masked_leading)(jnp.arange(6.0), n_active).tolist())
