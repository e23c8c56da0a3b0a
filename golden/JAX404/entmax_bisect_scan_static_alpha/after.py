# Cut down from https://github.com/jax-ml/jax/issues/5287
from functools import partial

import jax
import jax.numpy as jnp
from jax import jit
from jax import lax
from jax import vmap


@jit
def p_tau(z, tau, alpha=1.5):
    return jnp.clip((alpha - 1) * z - tau, min=0) ** (1 / (alpha - 1))


@jit
def get_tau(tau, tau_max, tau_min, z_value):
    return lax.cond(z_value < 1,
                    lambda _: (tau, tau_min),
                    lambda _: (tau_max, tau),
                    operand=None
                    )


@jit
def body(kwargs, x):
    tau_min = kwargs['tau_min']
    tau_max = kwargs['tau_max']
    z = kwargs['z']
    alpha = kwargs['alpha']

    tau = (tau_min + tau_max) / 2
    z_value = p_tau(z, tau, alpha).sum()
    taus = get_tau(tau, tau_max, tau_min, z_value)
    tau_max, tau_min = taus[0], taus[1]
    return {'tau_min': tau_min, 'tau_max': tau_max, 'z': z, 'alpha': alpha}, None


@partial(jit, static_argnums=(1, 2,))
def map_row(z_input, alpha, T):
    z = (alpha - 1) * z_input

    tau_min, tau_max = jnp.min(z) - 1, jnp.max(z) - z.shape[0] ** (1 - alpha)
    result, _ = lax.scan(body, {'tau_min': tau_min, 'tau_max': tau_max, 'z': z, 'alpha': alpha}, xs=None,
                         length=T)
    tau = (result['tau_min'] + result['tau_max']) / 2
    result = p_tau(z, tau, alpha)
    return result / result.sum()


x = jnp.array([[1.0, 2.0, 0.5, -1.0], [0.0, 0.1, 3.0, 0.2]])
out = vmap(lambda z: map_row(z, 1.5, 30))(x)
print([[round(float(v), 3) for v in row] for row in out])
