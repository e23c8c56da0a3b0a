# Cut down from PlasmaControl/DESC#998 (Switch back to old version of the zernike
# radial function): "If I just run jacfwd and jit on the zernike_radial function"
# -- J1 and J2 work, J3 (jit over jacrev, passing the derivative order dr=0)
# raises TracerBoolConversionError inside zernike_radial. _jacobi is simplified.
import jax
import jax.numpy as jnp
import numpy as np


def _jacobi(n, alpha, beta, x, dx=0):
    # stand-in for DESC's stable Jacobi recursion (first two terms only)
    p = 1 + (alpha + 1) * (x - 1) / 2 * n
    return p if dx == 0 else (alpha + 1) / 2 * n + 0 * x


def zernike_radial(r, l, m, dr=0):
    """Radial part of zernike polynomials."""
    m = jnp.abs(m)
    alpha = m
    beta = 0
    n = (l - m) // 2
    s = (-1) ** n
    jacobi_arg = 1 - 2 * r**2
    if dr == 0:
        out = r**m * _jacobi(n, alpha, beta, jacobi_arg, 0)
    elif dr == 1:
        f = _jacobi(n, alpha, beta, jacobi_arg, 0)
        df = _jacobi(n, alpha, beta, jacobi_arg, 1)
        out = m * r ** jnp.maximum(m - 1, 0) * f - 4 * r ** (m + 1) * df
    return s * out


modes = np.array([[0, 0], [1, 1], [2, 0], [2, 2]])
r = np.linspace(0, 1, 5)

J1 = jax.jacfwd(zernike_radial)(r[:, np.newaxis], modes[:, 0], modes[:, 1], 0)
J2 = jax.jit(jax.jacrev(zernike_radial))(r[:, np.newaxis], modes[:, 0], modes[:, 1])
J3 = jax.jit(jax.jacrev(zernike_radial), static_argnames=("dr",))(r[:, np.newaxis], modes[:, 0], modes[:, 1], 0)
print(J1.shape, J2.shape, J3.shape)
print(np.round(np.asarray(J3).sum(axis=(1, 2, 3)), 4))
