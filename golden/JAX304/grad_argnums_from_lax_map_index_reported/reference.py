import jax
import jax.numpy as np


def f(x, y):
    return 2 * x + 3 * y


inp = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
grad_indices = np.array([0, 0, 1, 0, 1])  # this now has to be an array

# argnums must be a Python int, so build one branch per possible argnums
# and pick the branch with the traced index instead of calling int() on it.
grad_branches = [jax.grad(f, argnums=0), jax.grad(f, argnums=1)]


def partialf(i):
    grad_result = jax.lax.switch(grad_indices[i], grad_branches, inp[i], inp[i])
    return grad_result


grad_result = jax.lax.map(partialf, np.arange(5))
print([float(g) for g in grad_result])
