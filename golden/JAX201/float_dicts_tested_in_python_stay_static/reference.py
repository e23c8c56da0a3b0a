from functools import partial

import jax
import jax.numpy as jnp


def sersic(r, amp, R_sersic):
    return amp * jnp.exp(-r / R_sersic)


@partial(jax.jit, static_argnums=(1,))
def model(r, kwargs_light):
    flux = jnp.zeros_like(r)
    for amp, R_sersic in kwargs_light:
        if amp > 0:
            flux = flux + sersic(r, amp, R_sersic)
    return flux


r = jnp.linspace(0.1, 1.0, 4)
light = ((3.0, 0.5), (-1.0, 0.2))
print([round(float(v), 4) for v in model(r, light)])
