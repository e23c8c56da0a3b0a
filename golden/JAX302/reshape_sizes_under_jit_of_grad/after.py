# Cut down from jax-ml/jax#1629 ("How to use jit with jax.numpy.reshape?"):
# a spatial unmixing functional reshapes X to (r, m, n) image form; the image
# size m, n is passed as ordinary arguments of the jitted gradient.
import numpy as onp
import jax.numpy as np
from jax import jit, grad


def spatial_functional(X, Y, K, m, n, lambda_):
    r = X.shape[0]
    X_imshape = np.reshape(X, (r, m, n), order='F')
    tv = (np.sum(np.abs(np.diff(X_imshape, axis=1)))
          + np.sum(np.abs(np.diff(X_imshape, axis=2))))
    residual = np.dot(K, X) - Y
    return 0.5 * np.sum(residual ** 2) + lambda_ * tv


jax_gradient_spatial_functional = jit(grad(spatial_functional), static_argnames=("m", "n"))


def main():
    rs = onp.random.RandomState(0)
    m, n, r, p = 4, 3, 2, 5
    K_GT = rs.rand(p, r).astype(onp.float32)
    Y = rs.rand(p, m * n).astype(onp.float32)
    x0 = onp.full((r, m * n), 0.5, dtype=onp.float32)
    lambda_ = 0.1
    x = x0
    for _ in range(3):
        x = x - 0.05 * jax_gradient_spatial_functional(x, Y, K_GT, m, n, lambda_)
    print("objective:", round(float(spatial_functional(x, Y, K_GT, m, n, lambda_)), 4))


if __name__ == "__main__":
    main()
