import jax
import jax.numpy as np


def f(x, y):
    return 2 * x + 3 * y


inp = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
grad_indices = np.array([0, 0, 1, 0, 1])  # this now has to be an array


def partialf(i):
    idx = int(grad_indices[i])  # force conversion to int
    grad_result = jax.grad(f, argnums=idx)(inp[i], inp[i])
    return grad_result


grad_result = jax.lax.map(partialf, np.arange(5))
print([float(g) for g in grad_result])
