# Hand fix: the same blend, three times, in Python.
import jax.numpy as jnp

x = jnp.array([0.0, 8.0])
c = x
for _ in range(3):
    c = c * 0.5 + (1 - 0.5) * x.mean()
print(c)
