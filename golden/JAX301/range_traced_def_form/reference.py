# Hand fix: Fibonacci numbers computed in plain Python.
import jax.numpy as jnp

values = []
a, b = 0, 1
for _ in range(8):
    values.append(a)
    a, b = b, a + b
print(jnp.array(values, dtype=jnp.float32))
