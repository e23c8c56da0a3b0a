# Cut down from jax-ml/jax#1076 ("noob vmap question with if statement",
# murphyk): a 1d truncated Gaussian kernel written for scalars with a Python if,
# vectorised with vmap (no jit anywhere).
import numpy as onp
import jax.numpy as np
from jax import vmap


def kernel_scalar(x, lam=0.18, beta=1.0):
    return np.where(np.abs(x) > lam, 0.0, np.exp(-beta*x**2))


def kernel(xs):
    kernels = vmap(kernel_scalar)(xs)
    return kernels


n = 10
xs = onp.random.RandomState(0).randn(n) * 0.2
print(onp.round(onp.asarray(kernel(xs)), 4))
