import jax
import jax.numpy as jnp
import numpy as np

f = lambda i: jnp.zeros((3, 3))[i, :]
g = lambda i: np.zeros((3, 3))[i, :]

a = np.array([1, 2])

print(f(a).tolist())
print(jax.jit(f)(a).tolist())

print(g(a).tolist())
print(jax.jit(g)(a).tolist())
