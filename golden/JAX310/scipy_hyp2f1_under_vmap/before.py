# Adapted from jax-ml/jax#7958: a batched (vmapped) JAX function involving the Gauss
# hypergeometric function. The reporter gave no code; this is a minimal function of that
# kind: a Student-t CDF.
import numpy as np
import scipy.special
import jax
import jax.numpy as jnp
from jax.scipy.special import gammaln


def student_t_cdf(t, nu):
    z = -t ** 2 / nu
    hyp = scipy.special.hyp2f1(0.5, (nu + 1) / 2, 1.5, z)
    log_c = gammaln((nu + 1) / 2) - gammaln(nu / 2) - 0.5 * jnp.log(jnp.pi * nu)
    return 0.5 + t * jnp.exp(log_c) * hyp


batched_cdf = jax.vmap(student_t_cdf, in_axes=(0, None))
ts = jnp.linspace(-2.0, 2.0, 5)
print(np.round(np.asarray(batched_cdf(ts, 5.0), dtype=np.float64), 4).tolist())
