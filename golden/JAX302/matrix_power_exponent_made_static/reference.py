import jax.numpy as jnp
from jax import jit


def minimal_example(F, x, n):

    return jnp.linalg.matrix_power(F, n) @ x @ jnp.linalg.matrix_power(F, n).T


sample_F = jnp.array([[1.0, 0.5], [0.0, 1.0]])
sample_x = jnp.array([[2.0, 0.0], [0.0, 1.0]])
sample_n = 2

# Works fine without JIT
print(minimal_example(sample_F, sample_x, sample_n))

jit_fun = jit(minimal_example, static_argnums=(2,))
print(jit_fun(sample_F, sample_x, sample_n))
