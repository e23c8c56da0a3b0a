# scipy.special inside a jitted function, on a static argument only: SciPy computes the
# normalising constant in Python while jit traces, and the traced data never reaches SciPy.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import scipy.special


@partial(jax.jit, static_argnames="nu")
def student_t_logpdf(t, nu):
    log_c = scipy.special.gammaln((nu + 1) / 2) - scipy.special.gammaln(nu / 2) - 0.5 * np.log(np.pi * nu)
    return log_c - (nu + 1) / 2 * jnp.log1p(t ** 2 / nu)


print(np.round(np.asarray(student_t_logpdf(jnp.linspace(-2.0, 2.0, 5), 5.0), dtype=np.float64), 4).tolist())
