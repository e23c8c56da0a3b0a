# Hand fix of QuantEcon/lecture-jax#95 (the notebook's cells in order): the
# iteration count and the seed stay static, as the lecture first had it.
import jax
import jax.numpy as jnp
from functools import partial


@partial(jax.jit, static_argnames=("num_iterations", "seed"))
def power_iteration_sr(A, num_iterations=15, seed=1234):
    key = jax.random.PRNGKey(seed)
    b_k = jax.random.normal(key, (A.shape[1],))
    sr = 0
    for _ in range(num_iterations):
        b_k1 = jnp.dot(A, b_k)
        b_k1_norm = jnp.linalg.norm(b_k1)
        sr = jnp.sum(b_k1 * b_k)/jnp.sum(b_k * b_k)
        b_k = b_k1 / b_k1_norm
    return sr


β = 0.96
P = jnp.array([[0.9, 0.1], [0.4, 0.6]])
Q = β * P
print(round(float(power_iteration_sr(Q)), 4))
print(round(float(power_iteration_sr(Q, num_iterations=50)), 4))
