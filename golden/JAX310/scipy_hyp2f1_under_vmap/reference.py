# Adapted from jax-ml/jax#7958 ("Request scipy.special.hyp2f1"): the reporter used
# scipy.special.hyp2f1 inside a batched (vmapped) JAX function and got
# TracerArrayConversionError. The reporter gave no code; this is a minimal batched
# function of the same shape. Fix: use the JAX implementation jax.scipy.special.hyp2f1.
import numpy as np
import jax.scipy.special
import jax
import jax.numpy as jnp
from jax.scipy.special import gammaln


def student_t_cdf(t, nu):
    z = -t ** 2 / nu
    hyp = jax.scipy.special.hyp2f1(0.5, (nu + 1) / 2, 1.5, z)
    log_c = gammaln((nu + 1) / 2) - gammaln(nu / 2) - 0.5 * jnp.log(jnp.pi * nu)
    return 0.5 + t * jnp.exp(log_c) * hyp


batched_cdf = jax.vmap(student_t_cdf, in_axes=(0, None))
ts = jnp.linspace(-2.0, 2.0, 5)
print(np.round(np.asarray(batched_cdf(ts, 5.0), dtype=np.float64), 4).tolist())
