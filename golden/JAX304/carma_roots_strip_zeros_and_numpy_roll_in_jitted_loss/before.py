# Cut down from tinygp's quasisep CARMA kernel construction (CARMA.init), used
# inside a jitted loss as in the report.
import numpy as np
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)


def carma_init(alpha, beta, sigma=None):
    sigma = jnp.ones(()) if sigma is None else sigma
    alpha = jnp.atleast_1d(alpha)
    beta = jnp.atleast_1d(beta)
    p = alpha.shape[0]

    # roots of the autoregressive polynomial -> eigendecomposition
    alpha_ext = jnp.append(alpha, 1.0)
    roots = jnp.roots(alpha_ext[::-1])
    proj = roots[:, None] ** jnp.arange(p)[None, :]

    # stationary covariance parameters
    f = 2 * ((np.arange(2 * p) // 2) % 2) - 1
    x = f * jnp.append(alpha_ext, jnp.zeros(p - 1))
    params = jnp.stack([np.roll(x, k)[::2] for k in range(p)], axis=0)
    params = jnp.linalg.solve(params, 0.5 * sigma**2 * jnp.eye(p, 1, k=-p + 1))[:, 0]
    return dict(roots=roots, proj=proj, params=params)


def loss(log_alpha, log_sigma):
    kernel = carma_init(jnp.exp(log_alpha), jnp.array([1.0]), jnp.exp(log_sigma))
    return jnp.sum(kernel["params"] ** 2) + jnp.sum(jnp.real(kernel["roots"]))


if __name__ == "__main__":
    log_alpha = jnp.log(jnp.array([0.7, 1.3]))
    val = jax.jit(loss)(log_alpha, jnp.log(0.5))
    print(round(float(val), 4))
