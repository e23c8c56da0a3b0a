# Cut down from jax-ml/jax#1443 ("Function as an argument in jitted functions").
# The reporter wanted deflated power iteration (as in pytorch-hessian-eigenthings'
# power_iter.py) where an operator function is applied inside a loop and passed
# as an argument to a jitted function.
from functools import partial

import jax.numpy as np
from jax import jit


@partial(jit, static_argnums=(0,))
def power_iteration(operator, v0):
    v = v0 / np.linalg.norm(v0)
    for _ in range(50):
        w = operator(v)
        v = w / np.linalg.norm(w)
    return np.dot(v, operator(v)), v


def deflated_operator(operator, eigval, eigvec):
    def _deflated(v):
        return operator(v) - eigval * np.dot(eigvec, v) * eigvec
    return _deflated


A = np.array([[4.0, 1.0, 0.0],
              [1.0, 3.0, 1.0],
              [0.0, 1.0, 2.0]])
operator = lambda v: np.dot(A, v)
v0 = np.ones(3)

eigvals = []
for _ in range(2):
    eigval, eigvec = power_iteration(operator, v0)
    eigvals.append(round(float(eigval), 4))
    operator = deflated_operator(operator, eigval, eigvec)
print(eigvals)
