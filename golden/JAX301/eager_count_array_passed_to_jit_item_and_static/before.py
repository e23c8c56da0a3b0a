import jax
import jax.numpy as jnp

mask = jnp.array([True, False, True, True, False])
n_active = jnp.count_nonzero(mask)


def leading(values, n):
    return values[jnp.arange(n)] * 2.0


print(jax.jit(leading)(jnp.arange(10.0), n_active).tolist())
